from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CardHolderMeta")


@_attrs_define
class CardHolderMeta:
    """
    Attributes:
        funding_source (None | str):
        monthly_transaction_value (None | str):
    """

    funding_source: None | str
    monthly_transaction_value: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        funding_source: None | str
        funding_source = self.funding_source

        monthly_transaction_value: None | str
        monthly_transaction_value = self.monthly_transaction_value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fundingSource": funding_source,
                "monthlyTransactionValue": monthly_transaction_value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_funding_source(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        funding_source = _parse_funding_source(d.pop("fundingSource"))

        def _parse_monthly_transaction_value(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        monthly_transaction_value = _parse_monthly_transaction_value(d.pop("monthlyTransactionValue"))

        card_holder_meta = cls(
            funding_source=funding_source,
            monthly_transaction_value=monthly_transaction_value,
        )

        card_holder_meta.additional_properties = d
        return card_holder_meta

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
