from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.account_detail_update_type_type_0 import AccountDetailUpdateTypeType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.account_detail_update_details_type_0 import AccountDetailUpdateDetailsType0


T = TypeVar("T", bound="AccountDetailUpdate")


@_attrs_define
class AccountDetailUpdate:
    """
    Attributes:
        type_ (AccountDetailUpdateTypeType0 | None | Unset):
        details (AccountDetailUpdateDetailsType0 | None | Unset):
        provider (None | str | Unset):
        is_primary (bool | None | Unset):
    """

    type_: AccountDetailUpdateTypeType0 | None | Unset = UNSET
    details: AccountDetailUpdateDetailsType0 | None | Unset = UNSET
    provider: None | str | Unset = UNSET
    is_primary: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.account_detail_update_details_type_0 import AccountDetailUpdateDetailsType0  # noqa: PLC0415

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        elif isinstance(self.type_, AccountDetailUpdateTypeType0):
            type_ = self.type_.value
        else:
            type_ = self.type_

        details: dict[str, Any] | None | Unset
        if isinstance(self.details, Unset):
            details = UNSET
        elif isinstance(self.details, AccountDetailUpdateDetailsType0):
            details = self.details.to_dict()
        else:
            details = self.details

        provider: None | str | Unset
        if isinstance(self.provider, Unset):
            provider = UNSET
        else:
            provider = self.provider

        is_primary: bool | None | Unset
        if isinstance(self.is_primary, Unset):
            is_primary = UNSET
        else:
            is_primary = self.is_primary

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if type_ is not UNSET:
            field_dict["type"] = type_
        if details is not UNSET:
            field_dict["details"] = details
        if provider is not UNSET:
            field_dict["provider"] = provider
        if is_primary is not UNSET:
            field_dict["isPrimary"] = is_primary

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account_detail_update_details_type_0 import AccountDetailUpdateDetailsType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_type_(data: object) -> AccountDetailUpdateTypeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_0 = AccountDetailUpdateTypeType0(data)

                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccountDetailUpdateTypeType0 | None | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        def _parse_details(data: object) -> AccountDetailUpdateDetailsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = AccountDetailUpdateDetailsType0.from_dict(data)

                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccountDetailUpdateDetailsType0 | None | Unset, data)

        details = _parse_details(d.pop("details", UNSET))

        def _parse_provider(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        provider = _parse_provider(d.pop("provider", UNSET))

        def _parse_is_primary(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_primary = _parse_is_primary(d.pop("isPrimary", UNSET))

        account_detail_update = cls(
            type_=type_,
            details=details,
            provider=provider,
            is_primary=is_primary,
        )

        return account_detail_update
