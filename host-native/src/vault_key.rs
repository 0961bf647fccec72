//! The vault key (AES-256 for PAN and CVV): from configuration, or a file beside the data file that is
//! created once (mode 0600) and reused on every later start.

use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::system_env::random_bytes;

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

/// The configured key if any, else the one in `<data>.vault-key`, created on first use. A shared
/// database (`store`) has no key file beside it: every instance must be given the same key.
pub fn resolve(
    configured: Option<&str>,
    store: Option<&str>,
    data: &Path,
) -> Result<([u8; 32], Source), String> {
    if store.is_some() && configured.is_none() {
        return Err(
            "--store needs the vault key configured: pass --vault-key or set CARDS_VAULT_KEY \
             (64 hex characters, the same for every instance on this database)"
                .into(),
        );
    }
    if let Some(hex) = configured {
        return parse_hex(hex)
            .map(|k| (k, Source::Configured))
            .map_err(|e| format!("--vault-key / CARDS_VAULT_KEY: {e}"));
    }
    let path = key_file_for(data);
    load_or_create(&path)
}

fn load_or_create(path: &Path) -> Result<([u8; 32], Source), String> {
    match read(path) {
        Ok(Some(key)) => return Ok((key, Source::FileReused(path.to_path_buf()))),
        Ok(None) => {}
        Err(e) => return Err(e),
    }
    let key = random_bytes::<32>()?;
    // create_new: two servers starting at once must not overwrite each other's key.
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path);
    let mut file = match file {
        Ok(f) => f,
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            return match read(path)? {
                Some(key) => Ok((key, Source::FileReused(path.to_path_buf()))),
                None => Err(format!("vault key file {} vanished", path.display())),
            };
        }
        Err(e) => {
            return Err(format!(
                "cannot create vault key file {}: {e}",
                path.display()
            ));
        }
    };
    let write = file
        .write_all(format!("{}\n", hex::encode(key)).as_bytes())
        .and_then(|()| file.sync_all());
    if let Err(e) = write {
        // Leave no half-written key that a later start would reject or, worse, accept.
        let _ = fs::remove_file(path);
        return Err(format!(
            "cannot write vault key file {}: {e}",
            path.display()
        ));
    }
    Ok((key, Source::FileCreated(path.to_path_buf())))
}

fn read(path: &Path) -> Result<Option<[u8; 32]>, String> {
    match fs::read_to_string(path) {
        Ok(text) => parse_hex(&text)
            .map(Some)
            .map_err(|e| format!("vault key file {}: {e}", path.display())),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!(
            "cannot read vault key file {}: {e}",
            path.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

        assert!(
            resolve(Some("xyz"), None, &data)
                .unwrap_err()
                .contains("64 hex")
        );
        assert!(resolve(Some(&hex[..62]), None, &data).is_err());
        // A shared database has no key file beside it.
        let err = resolve(None, Some("postgres://db/cards"), &data).unwrap_err();
        assert!(err.contains("--store needs the vault key"), "{err}");

        fs::write(key_file_for(&data), "not hex").unwrap();
        let err = resolve(None, None, &data).unwrap_err();
        assert!(err.contains("vault key file"), "{err}");
    }
}
