from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TestClockAdvance")


@_attrs_define
class TestClockAdvance:
    """
    Attributes:
        seconds (int):
    """

    seconds: int

    def to_dict(self) -> dict[str, Any]:
        seconds = self.seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "seconds": seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seconds = d.pop("seconds")

        test_clock_advance = cls(
            seconds=seconds,
        )

        return test_clock_advance
