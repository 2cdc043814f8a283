//! Deliberately simple references the fast code is tested against: each does its job the plain
//! way a person would check it, and shares nothing with the library's code. (The classic
//! backtracking solver lives in `common`, which the older tests use.)

pub mod candidates;
pub mod minlex;
pub mod singles;
pub mod techniques;
