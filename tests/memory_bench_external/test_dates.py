"""The three datasets' date strings parse to timezone-aware UTC instants."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_bench_external._dates import (
    DateFormatError,
    parse_halumem_datetime,
    parse_locomo_datetime,
    parse_longmemeval_datetime,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("10:37 am on 27 June, 2023", datetime(2023, 6, 27, 10, 37, tzinfo=UTC)),
        ("12:05 am on 1 January, 2024", datetime(2024, 1, 1, 0, 5, tzinfo=UTC)),
        ("12:30 pm on 3 Sept, 2023", datetime(2023, 9, 3, 12, 30, tzinfo=UTC)),
        ("7:05 PM on 3 Sep 2023", datetime(2023, 9, 3, 19, 5, tzinfo=UTC)),
    ],
)
def test_locomo_dates(text: str, expected: datetime) -> None:
    parsed = parse_locomo_datetime(text)
    assert parsed == expected
    assert parsed.tzinfo is UTC


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2023/05/30 (Tue) 23:40", datetime(2023, 5, 30, 23, 40, tzinfo=UTC)),
        ("2023/01/02 (Mon) 00:00", datetime(2023, 1, 2, 0, 0, tzinfo=UTC)),
        ("2023/5/3 09:07", datetime(2023, 5, 3, 9, 7, tzinfo=UTC)),
    ],
)
def test_longmemeval_dates(text: str, expected: datetime) -> None:
    assert parse_longmemeval_datetime(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Jan 15, 2029, 15:12:20", datetime(2029, 1, 15, 15, 12, 20, tzinfo=UTC)),
        ("Mar 02, 2029, 09:05:00", datetime(2029, 3, 2, 9, 5, 0, tzinfo=UTC)),
        ("December 1, 2030, 23:59:59", datetime(2030, 12, 1, 23, 59, 59, tzinfo=UTC)),
    ],
)
def test_halumem_dates(text: str, expected: datetime) -> None:
    assert parse_halumem_datetime(text) == expected


@pytest.mark.parametrize(
    ("parser", "text"),
    [
        (parse_locomo_datetime, "13:56 pm on 8 May, 2023"),
        (parse_locomo_datetime, "1:56 pm on 31 February, 2023"),
        (parse_locomo_datetime, "1:56 pm on 8 Smarch, 2023"),
        (parse_locomo_datetime, "2023-05-08T13:56:00"),
        (parse_longmemeval_datetime, "2023/13/01 (Tue) 10:00"),
        (parse_longmemeval_datetime, "30/05/2023 23:40"),
        (parse_halumem_datetime, "Jan 15 2029 15:12:20"),
        (parse_halumem_datetime, ""),
    ],
)
def test_bad_dates_raise(parser: object, text: str) -> None:
    assert callable(parser)
    with pytest.raises(DateFormatError):
        parser(text)
