//! Loading the game's cards and tiles from the JSON files in `assets/content/`.
//!
//! A malformed file is reported with the file's name and the reason, never a panic.

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::hero::HeroMat;

/// A content problem, naming the file and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentError {
    pub file: String,
    pub reason: String,
}

impl std::fmt::Display for ContentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.reason)
    }
}

impl std::error::Error for ContentError {}

/// Parses one content file, naming it in any error.
pub fn parse<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, ContentError> {
    serde_json::from_str(text).map_err(|e| ContentError { file: file.to_string(), reason: e.to_string() })
}

/// Every card the game knows.
#[derive(Clone, Debug, PartialEq)]
pub struct Content {
    pub heroes: Vec<HeroMat>,
}

#[derive(Deserialize)]
struct HeroesFile {
    heroes: Vec<HeroMat>,
}

/// The files, by their path under `assets/content/`, as shipped with the game.
pub const BUILTIN_FILES: &[(&str, &str)] = &[("heroes.json", include_str!("../../../assets/content/heroes.json"))];

impl Content {
    /// Builds the content from `(path, text)` pairs, validating every card.
    pub fn from_files(files: &[(&str, &str)]) -> Result<Content, ContentError> {
        let find = |name: &str| {
            files
                .iter()
                .find(|(f, _)| *f == name)
                .map(|(_, t)| *t)
                .ok_or_else(|| ContentError { file: name.to_string(), reason: "file is missing".to_string() })
        };
        let heroes: HeroesFile = parse("heroes.json", find("heroes.json")?)?;
        for mat in &heroes.heroes {
            for a in &mat.abilities {
                a.validate().map_err(|reason| ContentError {
                    file: "heroes.json".into(),
                    reason: format!("hero {}: {reason}", mat.id),
                })?;
            }
        }
        Ok(Content { heroes: heroes.heroes })
    }

    /// The content compiled into the game.
    pub fn builtin() -> Content {
        Content::from_files(BUILTIN_FILES).expect("the shipped content is validated by the test suite")
    }

    pub fn hero(&self, id: &str) -> Option<&HeroMat> {
        self.heroes.iter().find(|h| h.id == id)
    }
}
