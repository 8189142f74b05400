"""marginboost: margin-based boosting, its duality theory, and reproductions of five papers.

See the book (``make book``) for the narrative; the public estimators are added here as the
algorithm modules land.
"""
from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
