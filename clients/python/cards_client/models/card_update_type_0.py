from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CardUpdateType0")


@_attrs_define
class CardUpdateType0:
    """
    Attributes:
        status (Literal['canceled']):
        cancellation_reason (str):
    """

    status: Literal["canceled"]
    cancellation_reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        cancellation_reason = self.cancellation_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "cancellationReason": cancellation_reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = cast(Literal["canceled"], d.pop("status"))
        if status != "canceled":
            raise ValueError(f"status must match const 'canceled', got '{status}'")

        cancellation_reason = d.pop("cancellationReason")

        card_update_type_0 = cls(
            status=status,
            cancellation_reason=cancellation_reason,
        )

        card_update_type_0.additional_properties = d
        return card_update_type_0

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
