from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CardListItemSpendingControlsChannels")


@_attrs_define
class CardListItemSpendingControlsChannels:
    """
    Attributes:
        atm (bool | Unset):
        pos (bool | Unset):
        web (bool | Unset):
        mobile (bool | Unset):
    """

    atm: bool | Unset = UNSET
    pos: bool | Unset = UNSET
    web: bool | Unset = UNSET
    mobile: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        atm = self.atm

        pos = self.pos

        web = self.web

        mobile = self.mobile

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if atm is not UNSET:
            field_dict["atm"] = atm
        if pos is not UNSET:
            field_dict["pos"] = pos
        if web is not UNSET:
            field_dict["web"] = web
        if mobile is not UNSET:
            field_dict["mobile"] = mobile

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        atm = d.pop("atm", UNSET)

        pos = d.pop("pos", UNSET)

        web = d.pop("web", UNSET)

        mobile = d.pop("mobile", UNSET)

        card_list_item_spending_controls_channels = cls(
            atm=atm,
            pos=pos,
            web=web,
            mobile=mobile,
        )

        card_list_item_spending_controls_channels.additional_properties = d
        return card_list_item_spending_controls_channels

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
