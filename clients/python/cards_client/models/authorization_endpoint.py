from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.authorization_endpoint_fallback import AuthorizationEndpointFallback

T = TypeVar("T", bound="AuthorizationEndpoint")


@_attrs_define
class AuthorizationEndpoint:
    """
    Attributes:
        url (str):
        timeout_ms (int):
        fallback (AuthorizationEndpointFallback):
        secret (None | str): `whsec_` + base64 of 32 random bytes: shown when the endpoint is first set and by rotate-
            secret, null otherwise.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    url: str
    timeout_ms: int
    fallback: AuthorizationEndpointFallback
    secret: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        timeout_ms = self.timeout_ms

        fallback = self.fallback.value

        secret: None | str
        secret = self.secret

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "timeoutMs": timeout_ms,
                "fallback": fallback,
                "secret": secret,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        timeout_ms = d.pop("timeoutMs")

        fallback = AuthorizationEndpointFallback(d.pop("fallback"))

        def _parse_secret(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        secret = _parse_secret(d.pop("secret"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        authorization_endpoint = cls(
            url=url,
            timeout_ms=timeout_ms,
            fallback=fallback,
            secret=secret,
            created_at=created_at,
            updated_at=updated_at,
        )

        authorization_endpoint.additional_properties = d
        return authorization_endpoint

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
