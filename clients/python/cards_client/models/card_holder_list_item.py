from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.card_holder_list_item_address_type_0 import CardHolderListItemAddressType0
    from ..models.card_holder_list_item_identification import CardHolderListItemIdentification
    from ..models.card_holder_list_item_meta import CardHolderListItemMeta
    from ..models.card_holder_list_item_person import CardHolderListItemPerson


T = TypeVar("T", bound="CardHolderListItem")


@_attrs_define
class CardHolderListItem:
    """
    Attributes:
        field_id (str | Unset):
        name (str | Unset):
        person (CardHolderListItemPerson | Unset):
        address (CardHolderListItemAddressType0 | None | Unset):
        identification (CardHolderListItemIdentification | Unset):
        meta (CardHolderListItemMeta | Unset):
        created_at (datetime.datetime | Unset):
        updated_at (datetime.datetime | Unset):
    """

    field_id: str | Unset = UNSET
    name: str | Unset = UNSET
    person: CardHolderListItemPerson | Unset = UNSET
    address: CardHolderListItemAddressType0 | None | Unset = UNSET
    identification: CardHolderListItemIdentification | Unset = UNSET
    meta: CardHolderListItemMeta | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.card_holder_list_item_address_type_0 import CardHolderListItemAddressType0  # noqa: PLC0415

        field_id = self.field_id

        name = self.name

        person: dict[str, Any] | Unset = UNSET
        if not isinstance(self.person, Unset):
            person = self.person.to_dict()

        address: dict[str, Any] | None | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        elif isinstance(self.address, CardHolderListItemAddressType0):
            address = self.address.to_dict()
        else:
            address = self.address

        identification: dict[str, Any] | Unset = UNSET
        if not isinstance(self.identification, Unset):
            identification = self.identification.to_dict()

        meta: dict[str, Any] | Unset = UNSET
        if not isinstance(self.meta, Unset):
            meta = self.meta.to_dict()

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if name is not UNSET:
            field_dict["name"] = name
        if person is not UNSET:
            field_dict["person"] = person
        if address is not UNSET:
            field_dict["address"] = address
        if identification is not UNSET:
            field_dict["identification"] = identification
        if meta is not UNSET:
            field_dict["meta"] = meta
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_holder_list_item_address_type_0 import CardHolderListItemAddressType0  # noqa: PLC0415
        from ..models.card_holder_list_item_identification import CardHolderListItemIdentification  # noqa: PLC0415
        from ..models.card_holder_list_item_meta import CardHolderListItemMeta  # noqa: PLC0415
        from ..models.card_holder_list_item_person import CardHolderListItemPerson  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        name = d.pop("name", UNSET)

        _person = d.pop("person", UNSET)
        person: CardHolderListItemPerson | Unset
        if isinstance(_person, Unset):
            person = UNSET
        else:
            person = CardHolderListItemPerson.from_dict(_person)

        def _parse_address(data: object) -> CardHolderListItemAddressType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                address_type_0 = CardHolderListItemAddressType0.from_dict(data)

                return address_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardHolderListItemAddressType0 | None | Unset, data)

        address = _parse_address(d.pop("address", UNSET))

        _identification = d.pop("identification", UNSET)
        identification: CardHolderListItemIdentification | Unset
        if isinstance(_identification, Unset):
            identification = UNSET
        else:
            identification = CardHolderListItemIdentification.from_dict(_identification)

        _meta = d.pop("meta", UNSET)
        meta: CardHolderListItemMeta | Unset
        if isinstance(_meta, Unset):
            meta = UNSET
        else:
            meta = CardHolderListItemMeta.from_dict(_meta)

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        _updated_at = d.pop("updatedAt", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)

        card_holder_list_item = cls(
            field_id=field_id,
            name=name,
            person=person,
            address=address,
            identification=identification,
            meta=meta,
            created_at=created_at,
            updated_at=updated_at,
        )

        card_holder_list_item.additional_properties = d
        return card_holder_list_item

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
