from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.decision_reason_type_1 import DecisionReasonType1
from ..models.decision_reason_type_2_type_1 import DecisionReasonType2Type1
from ..models.decision_reason_type_3_type_1 import DecisionReasonType3Type1
from ..models.decision_source import DecisionSource

if TYPE_CHECKING:
    from ..models.decision_metadata_type_0 import DecisionMetadataType0


T = TypeVar("T", bound="Decision")


@_attrs_define
class Decision:
    """Who decided: the issuer's checks alone, the client's decision endpoint, or its fallback (after a timeout, an error
    or an invalid answer). Null for authorizations older than decisions.

        Attributes:
            source (DecisionSource):
            reason (DecisionReasonType1 | DecisionReasonType2Type1 | DecisionReasonType3Type1 | None):
            latency_ms (int):
            metadata (DecisionMetadataType0 | None): What the decision endpoint attached to its answer.
    """

    source: DecisionSource
    reason: DecisionReasonType1 | DecisionReasonType2Type1 | DecisionReasonType3Type1 | None
    latency_ms: int
    metadata: DecisionMetadataType0 | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.decision_metadata_type_0 import DecisionMetadataType0  # noqa: PLC0415

        source = self.source.value

        reason: None | str
        if isinstance(self.reason, DecisionReasonType1):
            reason = self.reason.value
        elif isinstance(self.reason, DecisionReasonType2Type1):
            reason = self.reason.value
        elif isinstance(self.reason, DecisionReasonType3Type1):
            reason = self.reason.value
        else:
            reason = self.reason

        latency_ms = self.latency_ms

        metadata: dict[str, Any] | None
        if isinstance(self.metadata, DecisionMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "source": source,
                "reason": reason,
                "latencyMs": latency_ms,
                "metadata": metadata,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.decision_metadata_type_0 import DecisionMetadataType0  # noqa: PLC0415

        d = dict(src_dict)
        source = DecisionSource(d.pop("source"))

        def _parse_reason(
            data: object,
        ) -> DecisionReasonType1 | DecisionReasonType2Type1 | DecisionReasonType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_1 = DecisionReasonType1(data)

                return reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_2_type_1 = DecisionReasonType2Type1(data)

                return reason_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_3_type_1 = DecisionReasonType3Type1(data)

                return reason_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DecisionReasonType1 | DecisionReasonType2Type1 | DecisionReasonType3Type1 | None, data)

        reason = _parse_reason(d.pop("reason"))

        latency_ms = d.pop("latencyMs")

        def _parse_metadata(data: object) -> DecisionMetadataType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = DecisionMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DecisionMetadataType0 | None, data)

        metadata = _parse_metadata(d.pop("metadata"))

        decision = cls(
            source=source,
            reason=reason,
            latency_ms=latency_ms,
            metadata=metadata,
        )

        decision.additional_properties = d
        return decision

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
