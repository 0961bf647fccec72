from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.address import Address
    from ..models.card_holder_identification import CardHolderIdentification
    from ..models.card_holder_meta import CardHolderMeta
    from ..models.person import Person


T = TypeVar("T", bound="CardHolder")


@_attrs_define
class CardHolder:
    """
    Attributes:
        field_id (str):
        name (str):
        person (Person):
        address (Address | None):
        identification (CardHolderIdentification):
        meta (CardHolderMeta):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    field_id: str
    name: str
    person: Person
    address: Address | None
    identification: CardHolderIdentification
    meta: CardHolderMeta
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.address import Address  # noqa: PLC0415

        field_id = self.field_id

        name = self.name

        person = self.person.to_dict()

        address: dict[str, Any] | None
        if isinstance(self.address, Address):
            address = self.address.to_dict()
        else:
            address = self.address

        identification = self.identification.to_dict()

        meta = self.meta.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "name": name,
                "person": person,
                "address": address,
                "identification": identification,
                "meta": meta,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.address import Address  # noqa: PLC0415
        from ..models.card_holder_identification import CardHolderIdentification  # noqa: PLC0415
        from ..models.card_holder_meta import CardHolderMeta  # noqa: PLC0415
        from ..models.person import Person  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id")

        name = d.pop("name")

        person = Person.from_dict(d.pop("person"))

        def _parse_address(data: object) -> Address | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                address_type_0 = Address.from_dict(data)

                return address_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Address | None, data)

        address = _parse_address(d.pop("address"))

        identification = CardHolderIdentification.from_dict(d.pop("identification"))

        meta = CardHolderMeta.from_dict(d.pop("meta"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        card_holder = cls(
            field_id=field_id,
            name=name,
            person=person,
            address=address,
            identification=identification,
            meta=meta,
            created_at=created_at,
            updated_at=updated_at,
        )

        card_holder.additional_properties = d
        return card_holder

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
