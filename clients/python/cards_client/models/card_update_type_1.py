from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_update_type_1_status_type_1 import CardUpdateType1StatusType1
from ..types import UNSET, Unset

T = TypeVar("T", bound="CardUpdateType1")


@_attrs_define
class CardUpdateType1:
    """
    Attributes:
        status (CardUpdateType1StatusType1 | None | Unset):
        cancellation_reason (None | Unset):
        credit_account_id (None | Unset):
    """

    status: CardUpdateType1StatusType1 | None | Unset = UNSET
    cancellation_reason: None | Unset = UNSET
    credit_account_id: None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, CardUpdateType1StatusType1):
            status = self.status.value
        else:
            status = self.status

        cancellation_reason = self.cancellation_reason

        credit_account_id = self.credit_account_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status
        if cancellation_reason is not UNSET:
            field_dict["cancellationReason"] = cancellation_reason
        if credit_account_id is not UNSET:
            field_dict["creditAccountId"] = credit_account_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_status(data: object) -> CardUpdateType1StatusType1 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_1 = CardUpdateType1StatusType1(data)

                return status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardUpdateType1StatusType1 | None | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        cancellation_reason = d.pop("cancellationReason", UNSET)

        credit_account_id = d.pop("creditAccountId", UNSET)

        card_update_type_1 = cls(
            status=status,
            cancellation_reason=cancellation_reason,
            credit_account_id=credit_account_id,
        )

        card_update_type_1.additional_properties = d
        return card_update_type_1

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
