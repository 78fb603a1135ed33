"""Side-by-side performance harness: ``python -m benchmarks.run`` (``make bench``).

Every figure is a ratio to a baseline measured in the same process run, so
the table reads the same on a fast laptop and on a slow CI runner.
"""
