//! The vault key (AES-256 for PAN and CVV): from configuration, or a file beside the data file that is
//! created once (mode 0600, durably: its bytes and its directory entry synced) and reused on every
//! later start. A key file a crash could take back would leave every card number sealed under a
//! key nobody has.

use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};

use crate::store::disk::{self, Disk};
use crate::system_env::{RandomError, random_bytes};

/// Where the key lives when configuration gives none: `<data file>.vault-key`.
pub fn key_file_for(data: &Path) -> PathBuf {
    let mut name = data.as_os_str().to_owned();
    name.push(".vault-key");
    PathBuf::from(name)
}

pub use card_core::domain::vault::parse_key_hex as parse_hex;

/// Where a key came from, so startup can say so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Configured,
    FileReused(PathBuf),
    FileCreated(PathBuf),
}

#[derive(Debug, thiserror::Error)]
pub enum VaultKeyError {
    #[error(
        "--store needs the vault key configured: pass --vault-key or set CARDS_VAULT_KEY \
         (64 hex characters, the same for every instance on this database)"
    )]
    NotConfigured,
    #[error("--vault-key / CARDS_VAULT_KEY: {0}")]
    Configured(String),
    #[error("vault key file {}: {reason}", path.display())]
    Unreadable { path: PathBuf, reason: String },
    #[error("cannot {action} vault key file {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error(transparent)]
    Random(#[from] RandomError),
}

/// The configured key if any, else the one in `<data>.vault-key`, created on first use. A shared
/// database (`store`) has no key file beside it: every instance must be given the same key.
pub fn resolve(
    configured: Option<&str>,
    store: Option<&str>,
    data: &Path,
) -> Result<([u8; 32], Source), VaultKeyError> {
    if store.is_some() && configured.is_none() {
        return Err(VaultKeyError::NotConfigured);
    }
    if let Some(hex) = configured {
        return parse_hex(hex)
            .map(|k| (k, Source::Configured))
            .map_err(VaultKeyError::Configured);
    }
    load_or_create(&disk::RealDisk, &key_file_for(data))
}

pub fn load_or_create(disk: &dyn Disk, path: &Path) -> Result<([u8; 32], Source), VaultKeyError> {
    if let Some(key) = read(disk, path)? {
        return Ok((key, Source::FileReused(path.to_path_buf())));
    }
    let key = random_bytes::<32>()?;
    // create_new: two servers starting at once must not overwrite each other's key.
    match disk::create_durably(disk, path, format!("{}\n", hex::encode(key)).as_bytes()) {
        Ok(()) => Ok((key, Source::FileCreated(path.to_path_buf()))),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => match read(disk, path)? {
            Some(key) => Ok((key, Source::FileReused(path.to_path_buf()))),
            None => Err(VaultKeyError::Io {
                action: "read",
                path: path.to_path_buf(),
                source: io::Error::from(ErrorKind::NotFound),
            }),
        },
        Err(source) => Err(VaultKeyError::Io {
            action: "write",
            path: path.to_path_buf(),
            source,
        }),
    }
}

fn read(disk: &dyn Disk, path: &Path) -> Result<Option<[u8; 32]>, VaultKeyError> {
    let io_error = |source| VaultKeyError::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    };
    let bytes = match disk.open(path) {
        Ok(file) => file.read_all().map_err(io_error)?,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(e)),
    };
    let unreadable = |reason: String| VaultKeyError::Unreadable {
        path: path.to_path_buf(),
        reason,
    };
    let text = String::from_utf8(bytes).map_err(|_| unreadable("not text".into()))?;
    parse_hex(&text).map(Some).map_err(unreadable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn creates_a_private_key_file_once_and_reuses_it() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("cards.redb");
        let (first, source) = resolve(None, None, &data).unwrap();
        let path = dir.path().join("cards.redb.vault-key");
        assert_eq!(source, Source::FileCreated(path.clone()));
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(
            fs::read_to_string(&path).unwrap().trim(),
            hex::encode(first)
        );

        let (again, source) = resolve(None, None, &data).unwrap();
        assert_eq!(again, first);
        assert_eq!(source, Source::FileReused(path));
    }

    #[test]
    fn configured_key_wins_and_bad_hex_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("cards.redb");
        let hex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
        let (key, source) = resolve(Some(hex), None, &data).unwrap();
        assert_eq!(source, Source::Configured);
        assert_eq!(key[1], 0x11);
        assert!(!key_file_for(&data).exists());

        let err = resolve(Some("xyz"), None, &data).unwrap_err().to_string();
        assert!(err.contains("64 hex"), "{err}");
        assert!(resolve(Some(&hex[..62]), None, &data).is_err());
        // A shared database has no key file beside it.
        let err = resolve(None, Some("postgres://db/cards"), &data)
            .unwrap_err()
            .to_string();
        assert!(err.contains("--store needs the vault key"), "{err}");

        fs::write(key_file_for(&data), "not hex").unwrap();
        let err = resolve(None, None, &data).unwrap_err().to_string();
        assert!(err.contains("vault key file"), "{err}");
    }
}
