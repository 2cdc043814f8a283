#!/bin/bash
# Solve corpus.txt.gz as a Slurm job array: task K of N solves shard K/N into out/part-K.csv.
# Submit from the directory holding corpus.txt.gz, with sudoku-batch on PATH:
#   sbatch docs/slurm-array.sh
# Options given to sbatch override the #SBATCH lines (tests/slurm.rs runs it with
# --array=1-4 --cpus-per-task=1 on a single-node cluster).
#SBATCH --array=1-100
#SBATCH --cpus-per-task=8
#SBATCH --requeue
set -euo pipefail
mkdir -p out
exec sudoku-batch solve corpus.txt.gz -j "$SLURM_CPUS_PER_TASK" --no-header \
  --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" \
  -o "out/part-$SLURM_ARRAY_TASK_ID.csv" --resume
