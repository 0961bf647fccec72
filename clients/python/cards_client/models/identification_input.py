from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.identification_input_document_type_0 import IdentificationInputDocumentType0
    from ..models.identification_input_proof_of_address_type_0 import IdentificationInputProofOfAddressType0


T = TypeVar("T", bound="IdentificationInput")


@_attrs_define
class IdentificationInput:
    """
    Attributes:
        document (IdentificationInputDocumentType0 | None | Unset):
        proof_of_address (IdentificationInputProofOfAddressType0 | None | Unset):
    """

    document: IdentificationInputDocumentType0 | None | Unset = UNSET
    proof_of_address: IdentificationInputProofOfAddressType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.identification_input_document_type_0 import IdentificationInputDocumentType0  # noqa: PLC0415
        from ..models.identification_input_proof_of_address_type_0 import IdentificationInputProofOfAddressType0  # noqa: PLC0415

        document: dict[str, Any] | None | Unset
        if isinstance(self.document, Unset):
            document = UNSET
        elif isinstance(self.document, IdentificationInputDocumentType0):
            document = self.document.to_dict()
        else:
            document = self.document

        proof_of_address: dict[str, Any] | None | Unset
        if isinstance(self.proof_of_address, Unset):
            proof_of_address = UNSET
        elif isinstance(self.proof_of_address, IdentificationInputProofOfAddressType0):
            proof_of_address = self.proof_of_address.to_dict()
        else:
            proof_of_address = self.proof_of_address

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if document is not UNSET:
            field_dict["document"] = document
        if proof_of_address is not UNSET:
            field_dict["proofOfAddress"] = proof_of_address

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.identification_input_document_type_0 import IdentificationInputDocumentType0  # noqa: PLC0415
        from ..models.identification_input_proof_of_address_type_0 import IdentificationInputProofOfAddressType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_document(data: object) -> IdentificationInputDocumentType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                document_type_0 = IdentificationInputDocumentType0.from_dict(data)

                return document_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IdentificationInputDocumentType0 | None | Unset, data)

        document = _parse_document(d.pop("document", UNSET))

        def _parse_proof_of_address(data: object) -> IdentificationInputProofOfAddressType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                proof_of_address_type_0 = IdentificationInputProofOfAddressType0.from_dict(data)

                return proof_of_address_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IdentificationInputProofOfAddressType0 | None | Unset, data)

        proof_of_address = _parse_proof_of_address(d.pop("proofOfAddress", UNSET))

        identification_input = cls(
            document=document,
            proof_of_address=proof_of_address,
        )

        return identification_input
