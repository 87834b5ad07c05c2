-- Concurrency (in-flight) limits: a seventh algorithm (docs/algorithms.md, Concurrency limits).
ALTER TYPE "Algorithm" ADD VALUE 'concurrency';
