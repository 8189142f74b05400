"""The two execution profiles of every protocol: ``quick`` and ``full``.

``full`` runs a paper's protocol (reduced only where a notebook states it); its grid cells are
committed as evidence under ``data/results/<paper>/store-full``.  ``quick`` runs small grids
that take seconds, for the tests and the committed notebooks compared by nbval.  Every part of
the package that takes a profile checks it here, so a misspelt profile gets one clear error.
"""

from __future__ import annotations

import enum

__all__ = ["Profile", "PROFILES", "check_profile"]


class Profile(enum.StrEnum):
    """An execution profile; compares equal to its name (``Profile.FULL == "full"``).

    Parameters
    ----------
    value : str
        The profile's name, ``"quick"`` or ``"full"`` (``Profile("full")``); prefer
        :meth:`parse`, whose error names the valid profiles.

    Attributes
    ----------
    QUICK : str
        ``"quick"``: small grids for the tests and the committed notebooks.
    FULL : str
        ``"full"``: the paper's protocol, whose cells are committed as evidence.

    Examples
    --------
    >>> from marginboost.experiments import Profile
    >>> Profile.parse("full") is Profile.FULL
    True
    >>> Profile.FULL == "full"
    True
    >>> Profile.parse("fast")
    Traceback (most recent call last):
    ...
    ValueError: unknown profile 'fast'; expected 'quick' or 'full'
    """

    QUICK = "quick"
    FULL = "full"

    @classmethod
    def parse(cls, value: object) -> Profile:
        """The profile named by ``value`` (a :class:`Profile` or its name).

        Parameters
        ----------
        value : Profile or str
            The profile or its name.

        Returns
        -------
        Profile
            The profile.

        Raises
        ------
        ValueError
            If ``value`` names no profile.

        Examples
        --------
        >>> Profile.parse("quick").value
        'quick'
        """
        if isinstance(value, cls):
            return value
        for profile in cls:
            if isinstance(value, str) and value == profile.value:
                return profile
        raise ValueError(
            f"unknown profile {value!r}; expected " + " or ".join(repr(p.value) for p in cls)
        )


#: The profiles' names, in the order the command line lists them.
PROFILES: tuple[str, ...] = tuple(p.value for p in Profile)


def check_profile(profile: object) -> str:
    """The name of a valid profile; a clear error for anything else.

    Parameters
    ----------
    profile : Profile or str
        The profile or its name.

    Returns
    -------
    str
        ``"quick"`` or ``"full"`` (the name a cell spec stores).

    Raises
    ------
    ValueError
        If ``profile`` names no profile.

    Examples
    --------
    >>> from marginboost.experiments import check_profile
    >>> check_profile("quick")
    'quick'
    """
    return Profile.parse(profile).value
