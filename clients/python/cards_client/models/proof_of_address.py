from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.proof_of_address_type_type_1 import ProofOfAddressTypeType1
from ..models.proof_of_address_type_type_2_type_1 import ProofOfAddressTypeType2Type1
from ..models.proof_of_address_type_type_3_type_1 import ProofOfAddressTypeType3Type1
from ..models.proof_of_address_verification_status import ProofOfAddressVerificationStatus

if TYPE_CHECKING:
    from ..models.file_meta import FileMeta


T = TypeVar("T", bound="ProofOfAddress")


@_attrs_define
class ProofOfAddress:
    """
    Attributes:
        type_ (None | ProofOfAddressTypeType1 | ProofOfAddressTypeType2Type1 | ProofOfAddressTypeType3Type1):
        document_id (None | str):
        verification_status (ProofOfAddressVerificationStatus):
        description (None | str):
        url (None | str):
        meta (FileMeta | None):
    """

    type_: None | ProofOfAddressTypeType1 | ProofOfAddressTypeType2Type1 | ProofOfAddressTypeType3Type1
    document_id: None | str
    verification_status: ProofOfAddressVerificationStatus
    description: None | str
    url: None | str
    meta: FileMeta | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.file_meta import FileMeta  # noqa: PLC0415

        type_: None | str
        if isinstance(self.type_, ProofOfAddressTypeType1):
            type_ = self.type_.value
        elif isinstance(self.type_, ProofOfAddressTypeType2Type1):
            type_ = self.type_.value
        elif isinstance(self.type_, ProofOfAddressTypeType3Type1):
            type_ = self.type_.value
        else:
            type_ = self.type_

        document_id: None | str
        document_id = self.document_id

        verification_status = self.verification_status.value

        description: None | str
        description = self.description

        url: None | str
        url = self.url

        meta: dict[str, Any] | None
        if isinstance(self.meta, FileMeta):
            meta = self.meta.to_dict()
        else:
            meta = self.meta

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "documentId": document_id,
                "verificationStatus": verification_status,
                "description": description,
                "url": url,
                "meta": meta,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.file_meta import FileMeta  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_type_(
            data: object,
        ) -> None | ProofOfAddressTypeType1 | ProofOfAddressTypeType2Type1 | ProofOfAddressTypeType3Type1:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_1 = ProofOfAddressTypeType1(data)

                return type_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_2_type_1 = ProofOfAddressTypeType2Type1(data)

                return type_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_3_type_1 = ProofOfAddressTypeType3Type1(data)

                return type_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None | ProofOfAddressTypeType1 | ProofOfAddressTypeType2Type1 | ProofOfAddressTypeType3Type1, data
            )

        type_ = _parse_type_(d.pop("type"))

        def _parse_document_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        document_id = _parse_document_id(d.pop("documentId"))

        verification_status = ProofOfAddressVerificationStatus(d.pop("verificationStatus"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        def _parse_meta(data: object) -> FileMeta | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                meta_type_0 = FileMeta.from_dict(data)

                return meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FileMeta | None, data)

        meta = _parse_meta(d.pop("meta"))

        proof_of_address = cls(
            type_=type_,
            document_id=document_id,
            verification_status=verification_status,
            description=description,
            url=url,
            meta=meta,
        )

        proof_of_address.additional_properties = d
        return proof_of_address

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
