"""FIDE ratings and title norms, pure Python (no Django): what an event's games do to each
player's rating (B.02 Rating Regulations), an unrated player's first rating, performance
ratings, and the title norms of B.01 Art. 1.4. The tables of B.02 8.1 are in ``tables``
(the rating tie-breaks of C.07 read them too).
"""

from .change import (
    FirstRating,
    GameChange,
    Kind,
    Performance,
    RatingChange,
    Record,
    development_coefficient,
    first_rating,
    performance,
    rated_difference,
    rating_change,
)
from .norms import (
    Condition,
    NormGame,
    NormResult,
    Participant,
    Title,
    check as check_norm,
    large_swiss_exemption,
)

__all__ = [
    "Condition",
    "FirstRating",
    "GameChange",
    "Kind",
    "NormGame",
    "NormResult",
    "Participant",
    "Performance",
    "RatingChange",
    "Record",
    "Title",
    "check_norm",
    "development_coefficient",
    "first_rating",
    "large_swiss_exemption",
    "performance",
    "rated_difference",
    "rating_change",
]
