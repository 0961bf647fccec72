from __future__ import annotations

import datetime
from collections.abc import Mapping
from io import BytesIO
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from .. import types
from ..models.card_holder_create_multipart_country_type_0 import CardHolderCreateMultipartCountryType0
from ..models.card_holder_create_multipart_gender_type_0 import CardHolderCreateMultipartGenderType0
from ..models.card_holder_create_multipart_nationality_type_0 import CardHolderCreateMultipartNationalityType0
from ..types import UNSET, File, FileTypes, Unset

T = TypeVar("T", bound="CardHolderCreateMultipart")


@_attrs_define
class CardHolderCreateMultipart:
    """Flat parts, or JSON-text parts `person`, `address`, `identification` and `meta` holding the objects of the JSON form
    (a JSON part's field wins over the flat one); snake_case part names are accepted too. Files `documentMain`,
    `documentBack` and `proofOfAddress` are stored and served at `GET /card-holders/{id}/files/{fileId}`; a file without
    its identification object creates it (status `pending`).

        Attributes:
            first_name (str):
            last_name (str):
            email (str):
            phone_number (str):
            name (str | Unset):
            date_of_birth (datetime.date | str | Unset):
            gender (CardHolderCreateMultipartGenderType0 | str | Unset):
            nationality (CardHolderCreateMultipartNationalityType0 | str | Unset):
            address_line_1 (str | Unset):
            city (str | Unset):
            state (str | Unset):
            postal_code (str | Unset):
            country (CardHolderCreateMultipartCountryType0 | str | Unset):
            document_main (File | Unset): JPEG, PNG or PDF (recognised by content), at most 5 MiB
            document_back (File | Unset): JPEG, PNG or PDF (recognised by content), at most 5 MiB
            proof_of_address (File | Unset): JPEG, PNG or PDF (recognised by content), at most 5 MiB
    """

    first_name: str
    last_name: str
    email: str
    phone_number: str
    name: str | Unset = UNSET
    date_of_birth: datetime.date | str | Unset = UNSET
    gender: CardHolderCreateMultipartGenderType0 | str | Unset = UNSET
    nationality: CardHolderCreateMultipartNationalityType0 | str | Unset = UNSET
    address_line_1: str | Unset = UNSET
    city: str | Unset = UNSET
    state: str | Unset = UNSET
    postal_code: str | Unset = UNSET
    country: CardHolderCreateMultipartCountryType0 | str | Unset = UNSET
    document_main: File | Unset = UNSET
    document_back: File | Unset = UNSET
    proof_of_address: File | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        first_name = self.first_name

        last_name = self.last_name

        email = self.email

        phone_number = self.phone_number

        name: str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        date_of_birth: str | Unset
        if isinstance(self.date_of_birth, Unset):
            date_of_birth = UNSET
        elif isinstance(self.date_of_birth, datetime.date):
            date_of_birth = self.date_of_birth.isoformat()
        else:
            date_of_birth = self.date_of_birth

        gender: str | Unset
        if isinstance(self.gender, Unset):
            gender = UNSET
        elif isinstance(self.gender, CardHolderCreateMultipartGenderType0):
            gender = self.gender.value
        else:
            gender = self.gender

        nationality: str | Unset
        if isinstance(self.nationality, Unset):
            nationality = UNSET
        elif isinstance(self.nationality, CardHolderCreateMultipartNationalityType0):
            nationality = self.nationality.value
        else:
            nationality = self.nationality

        address_line_1: str | Unset
        if isinstance(self.address_line_1, Unset):
            address_line_1 = UNSET
        else:
            address_line_1 = self.address_line_1

        city: str | Unset
        if isinstance(self.city, Unset):
            city = UNSET
        else:
            city = self.city

        state: str | Unset
        if isinstance(self.state, Unset):
            state = UNSET
        else:
            state = self.state

        postal_code: str | Unset
        if isinstance(self.postal_code, Unset):
            postal_code = UNSET
        else:
            postal_code = self.postal_code

        country: str | Unset
        if isinstance(self.country, Unset):
            country = UNSET
        elif isinstance(self.country, CardHolderCreateMultipartCountryType0):
            country = self.country.value
        else:
            country = self.country

        document_main: FileTypes | Unset = UNSET
        if not isinstance(self.document_main, Unset):
            document_main = self.document_main.to_tuple()

        document_back: FileTypes | Unset = UNSET
        if not isinstance(self.document_back, Unset):
            document_back = self.document_back.to_tuple()

        proof_of_address: FileTypes | Unset = UNSET
        if not isinstance(self.proof_of_address, Unset):
            proof_of_address = self.proof_of_address.to_tuple()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "firstName": first_name,
                "lastName": last_name,
                "email": email,
                "phoneNumber": phone_number,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if date_of_birth is not UNSET:
            field_dict["dateOfBirth"] = date_of_birth
        if gender is not UNSET:
            field_dict["gender"] = gender
        if nationality is not UNSET:
            field_dict["nationality"] = nationality
        if address_line_1 is not UNSET:
            field_dict["addressLine1"] = address_line_1
        if city is not UNSET:
            field_dict["city"] = city
        if state is not UNSET:
            field_dict["state"] = state
        if postal_code is not UNSET:
            field_dict["postalCode"] = postal_code
        if country is not UNSET:
            field_dict["country"] = country
        if document_main is not UNSET:
            field_dict["documentMain"] = document_main
        if document_back is not UNSET:
            field_dict["documentBack"] = document_back
        if proof_of_address is not UNSET:
            field_dict["proofOfAddress"] = proof_of_address

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("firstName", (None, str(self.first_name).encode(), "text/plain")))

        files.append(("lastName", (None, str(self.last_name).encode(), "text/plain")))

        files.append(("email", (None, str(self.email).encode(), "text/plain")))

        files.append(("phoneNumber", (None, str(self.phone_number).encode(), "text/plain")))

        if not isinstance(self.name, Unset):
            if isinstance(self.name, str):
                files.append(("name", (None, str(self.name).encode(), "text/plain")))

        if not isinstance(self.date_of_birth, Unset):
            if isinstance(self.date_of_birth, datetime.date):
                files.append(("dateOfBirth", (None, self.date_of_birth.isoformat().encode(), "text/plain")))
            else:
                files.append(("dateOfBirth", (None, str(self.date_of_birth).encode(), "text/plain")))

        if not isinstance(self.gender, Unset):
            if isinstance(self.gender, CardHolderCreateMultipartGenderType0):
                files.append(("gender", (None, str(self.gender.value).encode(), "text/plain")))
            else:
                files.append(("gender", (None, str(self.gender).encode(), "text/plain")))

        if not isinstance(self.nationality, Unset):
            if isinstance(self.nationality, CardHolderCreateMultipartNationalityType0):
                files.append(("nationality", (None, str(self.nationality.value).encode(), "text/plain")))
            else:
                files.append(("nationality", (None, str(self.nationality).encode(), "text/plain")))

        if not isinstance(self.address_line_1, Unset):
            if isinstance(self.address_line_1, str):
                files.append(("addressLine1", (None, str(self.address_line_1).encode(), "text/plain")))

        if not isinstance(self.city, Unset):
            if isinstance(self.city, str):
                files.append(("city", (None, str(self.city).encode(), "text/plain")))

        if not isinstance(self.state, Unset):
            if isinstance(self.state, str):
                files.append(("state", (None, str(self.state).encode(), "text/plain")))

        if not isinstance(self.postal_code, Unset):
            if isinstance(self.postal_code, str):
                files.append(("postalCode", (None, str(self.postal_code).encode(), "text/plain")))

        if not isinstance(self.country, Unset):
            if isinstance(self.country, CardHolderCreateMultipartCountryType0):
                files.append(("country", (None, str(self.country.value).encode(), "text/plain")))
            else:
                files.append(("country", (None, str(self.country).encode(), "text/plain")))

        if not isinstance(self.document_main, Unset):
            files.append(("documentMain", self.document_main.to_tuple()))

        if not isinstance(self.document_back, Unset):
            files.append(("documentBack", self.document_back.to_tuple()))

        if not isinstance(self.proof_of_address, Unset):
            files.append(("proofOfAddress", self.proof_of_address.to_tuple()))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        first_name = d.pop("firstName")

        last_name = d.pop("lastName")

        email = d.pop("email")

        phone_number = d.pop("phoneNumber")

        def _parse_name(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_date_of_birth(data: object) -> datetime.date | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                date_of_birth_type_0 = datetime.date.fromisoformat(data)

                return date_of_birth_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | str | Unset, data)

        date_of_birth = _parse_date_of_birth(d.pop("dateOfBirth", UNSET))

        def _parse_gender(data: object) -> CardHolderCreateMultipartGenderType0 | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                gender_type_0 = CardHolderCreateMultipartGenderType0(data)

                return gender_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardHolderCreateMultipartGenderType0 | str | Unset, data)

        gender = _parse_gender(d.pop("gender", UNSET))

        def _parse_nationality(data: object) -> CardHolderCreateMultipartNationalityType0 | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                nationality_type_0 = CardHolderCreateMultipartNationalityType0(data)

                return nationality_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardHolderCreateMultipartNationalityType0 | str | Unset, data)

        nationality = _parse_nationality(d.pop("nationality", UNSET))

        def _parse_address_line_1(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        address_line_1 = _parse_address_line_1(d.pop("addressLine1", UNSET))

        def _parse_city(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        city = _parse_city(d.pop("city", UNSET))

        def _parse_state(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        state = _parse_state(d.pop("state", UNSET))

        def _parse_postal_code(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        postal_code = _parse_postal_code(d.pop("postalCode", UNSET))

        def _parse_country(data: object) -> CardHolderCreateMultipartCountryType0 | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                country_type_0 = CardHolderCreateMultipartCountryType0(data)

                return country_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardHolderCreateMultipartCountryType0 | str | Unset, data)

        country = _parse_country(d.pop("country", UNSET))

        _document_main = d.pop("documentMain", UNSET)
        document_main: File | Unset
        if isinstance(_document_main, Unset):
            document_main = UNSET
        else:
            document_main = File(payload=BytesIO(_document_main))

        _document_back = d.pop("documentBack", UNSET)
        document_back: File | Unset
        if isinstance(_document_back, Unset):
            document_back = UNSET
        else:
            document_back = File(payload=BytesIO(_document_back))

        _proof_of_address = d.pop("proofOfAddress", UNSET)
        proof_of_address: File | Unset
        if isinstance(_proof_of_address, Unset):
            proof_of_address = UNSET
        else:
            proof_of_address = File(payload=BytesIO(_proof_of_address))

        card_holder_create_multipart = cls(
            first_name=first_name,
            last_name=last_name,
            email=email,
            phone_number=phone_number,
            name=name,
            date_of_birth=date_of_birth,
            gender=gender,
            nationality=nationality,
            address_line_1=address_line_1,
            city=city,
            state=state,
            postal_code=postal_code,
            country=country,
            document_main=document_main,
            document_back=document_back,
            proof_of_address=proof_of_address,
        )

        return card_holder_create_multipart
