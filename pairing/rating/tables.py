"""The FIDE rating tables (B.02 Rating Regulations, in force from 1 March 2024, Art. 8.1).

``DP_BY_PERCENT[p]`` is the rating difference dp for a fractional score of p hundredths
(table 8.1.1, which the Title Regulations repeat as table 1.4.9). ``expected_score(diff)`` is
the scoring probability PD of a player rated ``diff`` points above the opponent (table 8.1.2).
Used by the rating change, first ratings, performance ratings and norms (``pairing.rating``)
and by the rating-based tie-breaks (C.07 Art. 10: TPR, PTP, APPO).
"""

from __future__ import annotations

from fractions import Fraction

# Table 8.1.1, p = 0.50 .. 1.00 (dp for p < 0.50 is the negative of dp(1 - p)).
_DP_UPPER = (
    0,
    7,
    14,
    21,
    29,
    36,
    43,
    50,
    57,
    65,  # .50 - .59
    72,
    80,
    87,
    95,
    102,
    110,
    117,
    125,
    133,
    141,  # .60 - .69
    149,
    158,
    166,
    175,
    184,
    193,
    202,
    211,
    220,
    230,  # .70 - .79
    240,
    251,
    262,
    273,
    284,
    296,
    309,
    322,
    336,
    351,  # .80 - .89
    366,
    383,
    401,
    422,
    444,
    470,
    501,
    538,
    589,
    677,  # .90 - .99
    800,  # 1.00
)

DP_BY_PERCENT: tuple[int, ...] = tuple(
    -_DP_UPPER[50 - p] if p < 50 else _DP_UPPER[p - 50] for p in range(101)
)

# Table 8.1.2: (largest difference, PD of the higher-rated side in hundredths), from .50 upwards.
_PD_STEPS = (
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (411, 92),
    (432, 93),
    (456, 94),
    (484, 95),
    (517, 96),
    (559, 97),
    (619, 98),
    (735, 99),
)


def round_half_up(value: Fraction) -> int:
    """Round to the nearest integer, 0.5 upwards (C.07 Art. 10.1)."""
    return int((value + Fraction(1, 2)).__floor__())


def dp_for(score: Fraction, games: int) -> int:
    """dp of table 8.1.1 for ``score`` points out of ``games`` (p rounded to hundredths,
    0.005 up)."""
    percent = round_half_up(score * 100 / games)
    return DP_BY_PERCENT[percent]


def expected_score(diff: int) -> Fraction:
    """PD of table 8.1.2: the expected score of a player rated ``diff`` points above the
    opponent."""
    magnitude = abs(diff)
    pd = 100
    for largest, hundredths in _PD_STEPS:
        if magnitude <= largest:
            pd = hundredths
            break
    value = Fraction(pd, 100)
    return value if diff >= 0 else 1 - value
