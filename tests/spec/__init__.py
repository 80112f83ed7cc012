"""Table-driven specification tests, one module per SPEC area (see /work/shared/SPEC.md)."""
