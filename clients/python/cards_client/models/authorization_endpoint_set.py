from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.authorization_endpoint_set_fallback_type_0 import AuthorizationEndpointSetFallbackType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="AuthorizationEndpointSet")


@_attrs_define
class AuthorizationEndpointSet:
    """
    Attributes:
        url (str): https anywhere; http only to loopback; never link-local or metadata addresses; private ranges only
            when the operator allows them.
        timeout_ms (int | None | Unset):
        fallback (AuthorizationEndpointSetFallbackType0 | None | Unset):
    """

    url: str
    timeout_ms: int | None | Unset = UNSET
    fallback: AuthorizationEndpointSetFallbackType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        timeout_ms: int | None | Unset
        if isinstance(self.timeout_ms, Unset):
            timeout_ms = UNSET
        else:
            timeout_ms = self.timeout_ms

        fallback: None | str | Unset
        if isinstance(self.fallback, Unset):
            fallback = UNSET
        elif isinstance(self.fallback, AuthorizationEndpointSetFallbackType0):
            fallback = self.fallback.value
        else:
            fallback = self.fallback

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if timeout_ms is not UNSET:
            field_dict["timeoutMs"] = timeout_ms
        if fallback is not UNSET:
            field_dict["fallback"] = fallback

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_timeout_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        timeout_ms = _parse_timeout_ms(d.pop("timeoutMs", UNSET))

        def _parse_fallback(data: object) -> AuthorizationEndpointSetFallbackType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                fallback_type_0 = AuthorizationEndpointSetFallbackType0(data)

                return fallback_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuthorizationEndpointSetFallbackType0 | None | Unset, data)

        fallback = _parse_fallback(d.pop("fallback", UNSET))

        authorization_endpoint_set = cls(
            url=url,
            timeout_ms=timeout_ms,
            fallback=fallback,
        )

        return authorization_endpoint_set
