from enum import StrEnum


class CardHolderListItemIdentificationDocumentType0TypeType3Type1(StrEnum):
    DRIVERS_LICENSE = "drivers_license"
    NATIONAL_ID = "national_id"
    PASSPORT = "passport"
    RESIDENCE_PERMIT = "residence_permit"
    VOTERS_CARD = "voters_card"

    def __str__(self) -> str:
        return str(self.value)
