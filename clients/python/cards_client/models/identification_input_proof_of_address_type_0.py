from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.identification_input_proof_of_address_type_0_type_type_0 import (
    IdentificationInputProofOfAddressType0TypeType0,
)
from ..models.identification_input_proof_of_address_type_0_verification_status_type_0 import (
    IdentificationInputProofOfAddressType0VerificationStatusType0,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.file_meta_input import FileMetaInput


T = TypeVar("T", bound="IdentificationInputProofOfAddressType0")


@_attrs_define
class IdentificationInputProofOfAddressType0:
    """
    Attributes:
        type_ (IdentificationInputProofOfAddressType0TypeType0 | None | Unset):
        document_id (None | str | Unset):
        verification_status (IdentificationInputProofOfAddressType0VerificationStatusType0 | None | Unset):
        description (None | str | Unset):
        url (None | str | Unset):
        meta (FileMetaInput | None | Unset):
    """

    type_: IdentificationInputProofOfAddressType0TypeType0 | None | Unset = UNSET
    document_id: None | str | Unset = UNSET
    verification_status: IdentificationInputProofOfAddressType0VerificationStatusType0 | None | Unset = UNSET
    description: None | str | Unset = UNSET
    url: None | str | Unset = UNSET
    meta: FileMetaInput | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.file_meta_input import FileMetaInput  # noqa: PLC0415

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        elif isinstance(self.type_, IdentificationInputProofOfAddressType0TypeType0):
            type_ = self.type_.value
        else:
            type_ = self.type_

        document_id: None | str | Unset
        if isinstance(self.document_id, Unset):
            document_id = UNSET
        else:
            document_id = self.document_id

        verification_status: None | str | Unset
        if isinstance(self.verification_status, Unset):
            verification_status = UNSET
        elif isinstance(self.verification_status, IdentificationInputProofOfAddressType0VerificationStatusType0):
            verification_status = self.verification_status.value
        else:
            verification_status = self.verification_status

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        meta: dict[str, Any] | None | Unset
        if isinstance(self.meta, Unset):
            meta = UNSET
        elif isinstance(self.meta, FileMetaInput):
            meta = self.meta.to_dict()
        else:
            meta = self.meta

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if type_ is not UNSET:
            field_dict["type"] = type_
        if document_id is not UNSET:
            field_dict["documentId"] = document_id
        if verification_status is not UNSET:
            field_dict["verificationStatus"] = verification_status
        if description is not UNSET:
            field_dict["description"] = description
        if url is not UNSET:
            field_dict["url"] = url
        if meta is not UNSET:
            field_dict["meta"] = meta

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.file_meta_input import FileMetaInput  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_type_(data: object) -> IdentificationInputProofOfAddressType0TypeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_0 = IdentificationInputProofOfAddressType0TypeType0(data)

                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IdentificationInputProofOfAddressType0TypeType0 | None | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        def _parse_document_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        document_id = _parse_document_id(d.pop("documentId", UNSET))

        def _parse_verification_status(
            data: object,
        ) -> IdentificationInputProofOfAddressType0VerificationStatusType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verification_status_type_0 = IdentificationInputProofOfAddressType0VerificationStatusType0(data)

                return verification_status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IdentificationInputProofOfAddressType0VerificationStatusType0 | None | Unset, data)

        verification_status = _parse_verification_status(d.pop("verificationStatus", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        def _parse_meta(data: object) -> FileMetaInput | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                meta_type_0 = FileMetaInput.from_dict(data)

                return meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FileMetaInput | None | Unset, data)

        meta = _parse_meta(d.pop("meta", UNSET))

        identification_input_proof_of_address_type_0 = cls(
            type_=type_,
            document_id=document_id,
            verification_status=verification_status,
            description=description,
            url=url,
            meta=meta,
        )

        return identification_input_proof_of_address_type_0
