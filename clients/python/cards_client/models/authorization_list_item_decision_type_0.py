from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.authorization_list_item_decision_type_0_reason_type_1 import AuthorizationListItemDecisionType0ReasonType1
from ..models.authorization_list_item_decision_type_0_reason_type_2_type_1 import (
    AuthorizationListItemDecisionType0ReasonType2Type1,
)
from ..models.authorization_list_item_decision_type_0_reason_type_3_type_1 import (
    AuthorizationListItemDecisionType0ReasonType3Type1,
)
from ..models.authorization_list_item_decision_type_0_source import AuthorizationListItemDecisionType0Source
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.authorization_list_item_decision_type_0_metadata_type_0 import (
        AuthorizationListItemDecisionType0MetadataType0,
    )


T = TypeVar("T", bound="AuthorizationListItemDecisionType0")


@_attrs_define
class AuthorizationListItemDecisionType0:
    """Who decided: the issuer's checks alone, the client's decision endpoint, or its fallback (after a timeout, an error
    or an invalid answer). Null for authorizations older than decisions.

        Attributes:
            source (AuthorizationListItemDecisionType0Source | Unset):
            reason (AuthorizationListItemDecisionType0ReasonType1 | AuthorizationListItemDecisionType0ReasonType2Type1 |
                AuthorizationListItemDecisionType0ReasonType3Type1 | None | Unset):
            latency_ms (int | Unset):
            metadata (AuthorizationListItemDecisionType0MetadataType0 | None | Unset): What the decision endpoint attached
                to its answer.
    """

    source: AuthorizationListItemDecisionType0Source | Unset = UNSET
    reason: (
        AuthorizationListItemDecisionType0ReasonType1
        | AuthorizationListItemDecisionType0ReasonType2Type1
        | AuthorizationListItemDecisionType0ReasonType3Type1
        | None
        | Unset
    ) = UNSET
    latency_ms: int | Unset = UNSET
    metadata: AuthorizationListItemDecisionType0MetadataType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.authorization_list_item_decision_type_0_metadata_type_0 import (
            AuthorizationListItemDecisionType0MetadataType0,  # noqa: PLC0415
        )

        source: str | Unset = UNSET
        if not isinstance(self.source, Unset):
            source = self.source.value

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        elif isinstance(self.reason, AuthorizationListItemDecisionType0ReasonType1):
            reason = self.reason.value
        elif isinstance(self.reason, AuthorizationListItemDecisionType0ReasonType2Type1):
            reason = self.reason.value
        elif isinstance(self.reason, AuthorizationListItemDecisionType0ReasonType3Type1):
            reason = self.reason.value
        else:
            reason = self.reason

        latency_ms = self.latency_ms

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, AuthorizationListItemDecisionType0MetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if source is not UNSET:
            field_dict["source"] = source
        if reason is not UNSET:
            field_dict["reason"] = reason
        if latency_ms is not UNSET:
            field_dict["latencyMs"] = latency_ms
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.authorization_list_item_decision_type_0_metadata_type_0 import (
            AuthorizationListItemDecisionType0MetadataType0,  # noqa: PLC0415
        )

        d = dict(src_dict)
        _source = d.pop("source", UNSET)
        source: AuthorizationListItemDecisionType0Source | Unset
        if isinstance(_source, Unset):
            source = UNSET
        else:
            source = AuthorizationListItemDecisionType0Source(_source)

        def _parse_reason(
            data: object,
        ) -> (
            AuthorizationListItemDecisionType0ReasonType1
            | AuthorizationListItemDecisionType0ReasonType2Type1
            | AuthorizationListItemDecisionType0ReasonType3Type1
            | None
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_1 = AuthorizationListItemDecisionType0ReasonType1(data)

                return reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_2_type_1 = AuthorizationListItemDecisionType0ReasonType2Type1(data)

                return reason_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_3_type_1 = AuthorizationListItemDecisionType0ReasonType3Type1(data)

                return reason_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                AuthorizationListItemDecisionType0ReasonType1
                | AuthorizationListItemDecisionType0ReasonType2Type1
                | AuthorizationListItemDecisionType0ReasonType3Type1
                | None
                | Unset,
                data,
            )

        reason = _parse_reason(d.pop("reason", UNSET))

        latency_ms = d.pop("latencyMs", UNSET)

        def _parse_metadata(data: object) -> AuthorizationListItemDecisionType0MetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = AuthorizationListItemDecisionType0MetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuthorizationListItemDecisionType0MetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        authorization_list_item_decision_type_0 = cls(
            source=source,
            reason=reason,
            latency_ms=latency_ms,
            metadata=metadata,
        )

        authorization_list_item_decision_type_0.additional_properties = d
        return authorization_list_item_decision_type_0

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
