from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.authorization_create_simulate_type_0_decline_reason import AuthorizationCreateSimulateType0DeclineReason

T = TypeVar("T", bound="AuthorizationCreateSimulateType0")


@_attrs_define
class AuthorizationCreateSimulateType0:
    """A forced outcome: declined with this reason, nothing checked, no money moves.

    Attributes:
        decline_reason (AuthorizationCreateSimulateType0DeclineReason):
    """

    decline_reason: AuthorizationCreateSimulateType0DeclineReason

    def to_dict(self) -> dict[str, Any]:
        decline_reason = self.decline_reason.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "declineReason": decline_reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        decline_reason = AuthorizationCreateSimulateType0DeclineReason(d.pop("declineReason"))

        authorization_create_simulate_type_0 = cls(
            decline_reason=decline_reason,
        )

        return authorization_create_simulate_type_0
