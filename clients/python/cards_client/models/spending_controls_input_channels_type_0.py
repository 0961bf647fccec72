from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SpendingControlsInputChannelsType0")


@_attrs_define
class SpendingControlsInputChannelsType0:
    """
    Attributes:
        atm (bool | None | Unset):
        pos (bool | None | Unset):
        web (bool | None | Unset):
        mobile (bool | None | Unset):
    """

    atm: bool | None | Unset = UNSET
    pos: bool | None | Unset = UNSET
    web: bool | None | Unset = UNSET
    mobile: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        atm: bool | None | Unset
        if isinstance(self.atm, Unset):
            atm = UNSET
        else:
            atm = self.atm

        pos: bool | None | Unset
        if isinstance(self.pos, Unset):
            pos = UNSET
        else:
            pos = self.pos

        web: bool | None | Unset
        if isinstance(self.web, Unset):
            web = UNSET
        else:
            web = self.web

        mobile: bool | None | Unset
        if isinstance(self.mobile, Unset):
            mobile = UNSET
        else:
            mobile = self.mobile

        field_dict: dict[str, Any] = {}

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

        def _parse_atm(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        atm = _parse_atm(d.pop("atm", UNSET))

        def _parse_pos(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        pos = _parse_pos(d.pop("pos", UNSET))

        def _parse_web(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        web = _parse_web(d.pop("web", UNSET))

        def _parse_mobile(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        mobile = _parse_mobile(d.pop("mobile", UNSET))

        spending_controls_input_channels_type_0 = cls(
            atm=atm,
            pos=pos,
            web=web,
            mobile=mobile,
        )

        return spending_controls_input_channels_type_0
