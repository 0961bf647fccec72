from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.dispute_resolve_outcome import DisputeResolveOutcome

T = TypeVar("T", bound="DisputeResolve")


@_attrs_define
class DisputeResolve:
    """
    Attributes:
        outcome (DisputeResolveOutcome):
    """

    outcome: DisputeResolveOutcome

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "outcome": outcome,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        outcome = DisputeResolveOutcome(d.pop("outcome"))

        dispute_resolve = cls(
            outcome=outcome,
        )

        return dispute_resolve
