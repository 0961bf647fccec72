from enum import StrEnum


class IdentificationInputProofOfAddressType0VerificationStatusType0(StrEnum):
    PENDING = "pending"
    REJECTED = "rejected"
    VERIFIED = "verified"

    def __str__(self) -> str:
        return str(self.value)
