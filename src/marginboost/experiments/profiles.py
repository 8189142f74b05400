"""The two execution profiles, ``quick`` and ``full`` (defined in :mod:`marginboost._profiles`,
which imports nothing, so that the command line can name them without loading the package)."""

from .._profiles import PROFILES, Profile, check_profile

__all__ = ["Profile", "PROFILES", "check_profile"]
