from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.document import Document
    from ..models.proof_of_address import ProofOfAddress


T = TypeVar("T", bound="CardHolderIdentification")


@_attrs_define
class CardHolderIdentification:
    """
    Attributes:
        document (Document | None):
        proof_of_address (None | ProofOfAddress):
    """

    document: Document | None
    proof_of_address: None | ProofOfAddress
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.document import Document  # noqa: PLC0415
        from ..models.proof_of_address import ProofOfAddress  # noqa: PLC0415

        document: dict[str, Any] | None
        if isinstance(self.document, Document):
            document = self.document.to_dict()
        else:
            document = self.document

        proof_of_address: dict[str, Any] | None
        if isinstance(self.proof_of_address, ProofOfAddress):
            proof_of_address = self.proof_of_address.to_dict()
        else:
            proof_of_address = self.proof_of_address

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "document": document,
                "proofOfAddress": proof_of_address,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document import Document  # noqa: PLC0415
        from ..models.proof_of_address import ProofOfAddress  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_document(data: object) -> Document | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                document_type_0 = Document.from_dict(data)

                return document_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Document | None, data)

        document = _parse_document(d.pop("document"))

        def _parse_proof_of_address(data: object) -> None | ProofOfAddress:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                proof_of_address_type_0 = ProofOfAddress.from_dict(data)

                return proof_of_address_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProofOfAddress, data)

        proof_of_address = _parse_proof_of_address(d.pop("proofOfAddress"))

        card_holder_identification = cls(
            document=document,
            proof_of_address=proof_of_address,
        )

        card_holder_identification.additional_properties = d
        return card_holder_identification

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
