from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.address_input_country_code_type_0 import AddressInputCountryCodeType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="AddressInput")


@_attrs_define
class AddressInput:
    """
    Attributes:
        line1 (None | str | Unset):
        city (None | str | Unset):
        state (None | str | Unset):
        postal_code (None | str | Unset):
        country_code (AddressInputCountryCodeType0 | None | Unset):
    """

    line1: None | str | Unset = UNSET
    city: None | str | Unset = UNSET
    state: None | str | Unset = UNSET
    postal_code: None | str | Unset = UNSET
    country_code: AddressInputCountryCodeType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        line1: None | str | Unset
        if isinstance(self.line1, Unset):
            line1 = UNSET
        else:
            line1 = self.line1

        city: None | str | Unset
        if isinstance(self.city, Unset):
            city = UNSET
        else:
            city = self.city

        state: None | str | Unset
        if isinstance(self.state, Unset):
            state = UNSET
        else:
            state = self.state

        postal_code: None | str | Unset
        if isinstance(self.postal_code, Unset):
            postal_code = UNSET
        else:
            postal_code = self.postal_code

        country_code: None | str | Unset
        if isinstance(self.country_code, Unset):
            country_code = UNSET
        elif isinstance(self.country_code, AddressInputCountryCodeType0):
            country_code = self.country_code.value
        else:
            country_code = self.country_code

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if line1 is not UNSET:
            field_dict["line1"] = line1
        if city is not UNSET:
            field_dict["city"] = city
        if state is not UNSET:
            field_dict["state"] = state
        if postal_code is not UNSET:
            field_dict["postalCode"] = postal_code
        if country_code is not UNSET:
            field_dict["countryCode"] = country_code

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_line1(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        line1 = _parse_line1(d.pop("line1", UNSET))

        def _parse_city(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        city = _parse_city(d.pop("city", UNSET))

        def _parse_state(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        state = _parse_state(d.pop("state", UNSET))

        def _parse_postal_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        postal_code = _parse_postal_code(d.pop("postalCode", UNSET))

        def _parse_country_code(data: object) -> AddressInputCountryCodeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                country_code_type_0 = AddressInputCountryCodeType0(data)

                return country_code_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AddressInputCountryCodeType0 | None | Unset, data)

        country_code = _parse_country_code(d.pop("countryCode", UNSET))

        address_input = cls(
            line1=line1,
            city=city,
            state=state,
            postal_code=postal_code,
            country_code=country_code,
        )

        return address_input
