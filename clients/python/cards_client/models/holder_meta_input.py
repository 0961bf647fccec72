from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="HolderMetaInput")


@_attrs_define
class HolderMetaInput:
    """
    Attributes:
        funding_source (None | str | Unset):
        monthly_transaction_value (float | None | str | Unset):
    """

    funding_source: None | str | Unset = UNSET
    monthly_transaction_value: float | None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        funding_source: None | str | Unset
        if isinstance(self.funding_source, Unset):
            funding_source = UNSET
        else:
            funding_source = self.funding_source

        monthly_transaction_value: float | None | str | Unset
        if isinstance(self.monthly_transaction_value, Unset):
            monthly_transaction_value = UNSET
        else:
            monthly_transaction_value = self.monthly_transaction_value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if funding_source is not UNSET:
            field_dict["fundingSource"] = funding_source
        if monthly_transaction_value is not UNSET:
            field_dict["monthlyTransactionValue"] = monthly_transaction_value

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_funding_source(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        funding_source = _parse_funding_source(d.pop("fundingSource", UNSET))

        def _parse_monthly_transaction_value(data: object) -> float | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | str | Unset, data)

        monthly_transaction_value = _parse_monthly_transaction_value(d.pop("monthlyTransactionValue", UNSET))

        holder_meta_input = cls(
            funding_source=funding_source,
            monthly_transaction_value=monthly_transaction_value,
        )

        return holder_meta_input
