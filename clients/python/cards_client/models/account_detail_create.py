from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.account_detail_create_type import AccountDetailCreateType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.account_detail_create_details import AccountDetailCreateDetails


T = TypeVar("T", bound="AccountDetailCreate")


@_attrs_define
class AccountDetailCreate:
    """
    Attributes:
        type_ (AccountDetailCreateType):
        details (AccountDetailCreateDetails):
        provider (str):
        is_primary (bool | None | Unset):
    """

    type_: AccountDetailCreateType
    details: AccountDetailCreateDetails
    provider: str
    is_primary: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        details = self.details.to_dict()

        provider = self.provider

        is_primary: bool | None | Unset
        if isinstance(self.is_primary, Unset):
            is_primary = UNSET
        else:
            is_primary = self.is_primary

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "details": details,
                "provider": provider,
            }
        )
        if is_primary is not UNSET:
            field_dict["isPrimary"] = is_primary

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account_detail_create_details import AccountDetailCreateDetails  # noqa: PLC0415

        d = dict(src_dict)
        type_ = AccountDetailCreateType(d.pop("type"))

        details = AccountDetailCreateDetails.from_dict(d.pop("details"))

        provider = d.pop("provider")

        def _parse_is_primary(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_primary = _parse_is_primary(d.pop("isPrimary", UNSET))

        account_detail_create = cls(
            type_=type_,
            details=details,
            provider=provider,
            is_primary=is_primary,
        )

        return account_detail_create
