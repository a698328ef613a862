"""The observation encoders as they were before they wrote into preallocated arrays (one Python
call per feature): test-only references the fast encoders must match byte for byte."""
