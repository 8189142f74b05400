"""Plain-numpy reference implementations, written to be read against the papers.

They share no code with the fast estimators in :mod:`marginboost.boosting` and
:mod:`marginboost.weak`; the tests compare the two round by round.
"""
