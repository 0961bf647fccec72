from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.account_detail_type import AccountDetailType

if TYPE_CHECKING:
    from ..models.account_detail_details import AccountDetailDetails


T = TypeVar("T", bound="AccountDetail")


@_attrs_define
class AccountDetail:
    """
    Attributes:
        field_id (str):
        account_id (str):
        type_ (AccountDetailType):
        details (AccountDetailDetails):
        provider (str):
        is_primary (bool):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    field_id: str
    account_id: str
    type_: AccountDetailType
    details: AccountDetailDetails
    provider: str
    is_primary: bool
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        account_id = self.account_id

        type_ = self.type_.value

        details = self.details.to_dict()

        provider = self.provider

        is_primary = self.is_primary

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "accountId": account_id,
                "type": type_,
                "details": details,
                "provider": provider,
                "isPrimary": is_primary,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account_detail_details import AccountDetailDetails  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id")

        account_id = d.pop("accountId")

        type_ = AccountDetailType(d.pop("type"))

        details = AccountDetailDetails.from_dict(d.pop("details"))

        provider = d.pop("provider")

        is_primary = d.pop("isPrimary")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        account_detail = cls(
            field_id=field_id,
            account_id=account_id,
            type_=type_,
            details=details,
            provider=provider,
            is_primary=is_primary,
            created_at=created_at,
            updated_at=updated_at,
        )

        account_detail.additional_properties = d
        return account_detail

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
