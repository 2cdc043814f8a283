//! placeholder for the fast bitboard engine (issue 3); not wired in yet.
