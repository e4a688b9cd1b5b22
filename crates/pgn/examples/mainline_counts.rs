//! Prints, for every `.pgn` file under a folder, the number of games and the main-line ply
//! count of each game, in the format of `tests/python/mainline_counts.py` (python-chess), so
//! that the two can be compared with `diff`.
//!
//! `cargo run --release -p arbiter-pgn --example mainline_counts -- DIR [--errors]`

use arbiter_pgn::{ReadError, Reader, Visitor};
use arbiter_rules::{Move, Position};
use std::path::{Path, PathBuf};

#[derive(Default)]
struct Count {
    depth: usize,
    plies: usize,
    error: Option<ReadError>,
}

impl Visitor for Count {
    type Output = (usize, Option<ReadError>);
    fn begin_game(&mut self, _game: u64) {
        *self = Count::default();
    }
    fn mv(&mut self, _before: &Position, _mv: Move) {
        if self.depth == 0 {
            self.plies += 1;
        }
    }
    fn begin_variation(&mut self) -> arbiter_pgn::Control {
        arbiter_pgn::Control::Skip
    }
    fn error(&mut self, error: ReadError) {
        self.error = Some(error);
    }
    fn end_game(&mut self) -> Self::Output {
        (self.plies, self.error.take())
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "pgn") {
            out.push(p);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let root = PathBuf::from(args.get(1).expect("usage: mainline_counts DIR [--errors]"));
    let show_errors = args.iter().any(|a| a == "--errors");
    let mut files = Vec::new();
    walk(&root, &mut files);
    let mut rel: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| {
            (
                p.strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                p,
            )
        })
        .collect();
    rel.sort();
    for (name, path) in rel {
        let file = std::fs::File::open(&path).expect("open");
        let mut reader = Reader::new(file);
        let mut v = Count::default();
        let mut plies = Vec::new();
        while let Some((n, err)) = reader.read_game(&mut v).expect("read") {
            plies.push(n.to_string());
            if let (true, Some(e)) = (show_errors, err) {
                eprintln!("{name}: {e}");
            }
        }
        println!("{name}\t{}\t{}", plies.len(), plies.join(","));
    }
}
