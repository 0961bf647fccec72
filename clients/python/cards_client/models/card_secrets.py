from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CardSecrets")


@_attrs_define
class CardSecrets:
    """
    Attributes:
        pan (str):
        cvv (str):
        expiry_month (str):
        expiry_year (str):
    """

    pan: str
    cvv: str
    expiry_month: str
    expiry_year: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        pan = self.pan

        cvv = self.cvv

        expiry_month = self.expiry_month

        expiry_year = self.expiry_year

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "pan": pan,
                "cvv": cvv,
                "expiryMonth": expiry_month,
                "expiryYear": expiry_year,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        pan = d.pop("pan")

        cvv = d.pop("cvv")

        expiry_month = d.pop("expiryMonth")

        expiry_year = d.pop("expiryYear")

        card_secrets = cls(
            pan=pan,
            cvv=cvv,
            expiry_month=expiry_month,
            expiry_year=expiry_year,
        )

        card_secrets.additional_properties = d
        return card_secrets

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
