from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.api_key_list_item_permissions import ApiKeyListItemPermissions


T = TypeVar("T", bound="ApiKeyListItem")


@_attrs_define
class ApiKeyListItem:
    """
    Attributes:
        field_id (str | Unset): The first 24 hex characters of the key's SHA-256; never the key.
        client (str | Unset):
        permissions (ApiKeyListItemPermissions | Unset):
        reveal (bool | Unset): May create card tokens and reveal card numbers.
        created_at (datetime.datetime | None | Unset):
    """

    field_id: str | Unset = UNSET
    client: str | Unset = UNSET
    permissions: ApiKeyListItemPermissions | Unset = UNSET
    reveal: bool | Unset = UNSET
    created_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        client = self.client

        permissions: dict[str, Any] | Unset = UNSET
        if not isinstance(self.permissions, Unset):
            permissions = self.permissions.to_dict()

        reveal = self.reveal

        created_at: None | str | Unset
        if isinstance(self.created_at, Unset):
            created_at = UNSET
        elif isinstance(self.created_at, datetime.datetime):
            created_at = self.created_at.isoformat()
        else:
            created_at = self.created_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if client is not UNSET:
            field_dict["client"] = client
        if permissions is not UNSET:
            field_dict["permissions"] = permissions
        if reveal is not UNSET:
            field_dict["reveal"] = reveal
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.api_key_list_item_permissions import ApiKeyListItemPermissions  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        client = d.pop("client", UNSET)

        _permissions = d.pop("permissions", UNSET)
        permissions: ApiKeyListItemPermissions | Unset
        if isinstance(_permissions, Unset):
            permissions = UNSET
        else:
            permissions = ApiKeyListItemPermissions.from_dict(_permissions)

        reveal = d.pop("reveal", UNSET)

        def _parse_created_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                created_at_type_0 = datetime.datetime.fromisoformat(data)

                return created_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        created_at = _parse_created_at(d.pop("createdAt", UNSET))

        api_key_list_item = cls(
            field_id=field_id,
            client=client,
            permissions=permissions,
            reveal=reveal,
            created_at=created_at,
        )

        api_key_list_item.additional_properties = d
        return api_key_list_item

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
