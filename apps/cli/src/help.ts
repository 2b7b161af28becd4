import { FREE_TIER_MAX_URLS, MAX_ARCHIVE_PLACES } from '@placeport/contract';

// Grouped by hand: the first `Intl` call of a process loads ICU's data, a few milliseconds of every
// `--help` for one comma.
const CAP = String(MAX_ARCHIVE_PLACES).replace(/\B(?=(\d{3})+$)/g, ',');

/** `placeport --help`; `cacheFile` is where this computer's cache file is by default. */
export function helpText(cacheFile: string): string {
  return `placeport — turn Google Maps saved places (Google Takeout) into map files: KML for Google My
Maps, KMZ, GPX (Organic Maps, OsmAnd, GPS apps), GeoJSON and CSV with coordinates

Usage:
  placeport convert <archive.zip | archive.tgz> --out <dir> [options]
  placeport convert <list - failed-places.csv> --out <dir> [options]   (retry an earlier run's failures)
  placeport --help
  placeport --version

Getting the archive: at https://takeout.google.com, deselect all, then select "Saved" (your saved
lists) and "Maps (your places)" (your starred places), and export. Both are converted: the lists
(Saved/*.csv) and the starred places (Saved Places.json); a list with no place in it (its header
only) is reported as empty, a file without even a header as one that cannot be read.
Takeout's file type may be .zip (its default) or .tgz: placeport reads both (known by their
first bytes, whatever the name says), and an export already unzipped (give its folder, e.g.
Takeout, or just its Saved Places.json). An export of your whole account comes in parts: give the part that holds the "Saved"
folder; a .zip part of any size is read, only its lists, and a .tgz part is read through (its
progress shown).

Most links in a Takeout export name a place but carry no coordinates. placeport looks them up
itself, from your own computer: it reads each place's public Google Maps page (which Google serves
in full to a person's own computer) and, with an API key, asks the Places API first. Each place is
looked up once, even when it is saved in several lists. Your links go to Google and nowhere else
(unless you choose --api).

Options:
  --out <dir>                    Folder for the map files and the failed-places CSVs (created if
                                 missing).
  --format <format>              kml (default), kmz, gpx, geojson or csv. Repeat for several, e.g.
                                 --format kml --format gpx.
  --list <name>                  Convert only this list (its name, e.g. "Want to go", or its path
                                 in the archive). Repeat to choose several. Default: every list.
  --google-maps-api-key <key>    A Google Maps Platform key with the Places API (New) enabled: the
                                 most dependable lookups (Google bills your project for them).
                                 Default: the GOOGLE_MAPS_API_KEY environment variable (which
                                 keeps the key out of your shell history); without either, only
                                 public place pages are read.
  --offline                      Look nothing up: places whose link carries no coordinates are
                                 listed in the failed-places CSV ("lookups were off").
  --api <base-url>               Look places up through a PlacePort API you run (e.g.
                                 http://127.0.0.1:8080) instead of from this computer. Links go at
                                 most ${FREE_TIER_MAX_URLS} per request (the API's free tier); when the API refuses
                                 (allowance used, or a wait of over a minute), nothing more is
                                 sent and the summary says so.
  --cache-file <path>            Where found places are kept between runs (default below).
  --no-cache                     Neither read nor write a cache file.
  --json                         Print a machine-readable summary instead of text.
  --force                        Replace files already in the --out folder (see Output).
  -h, --help                     Show this help.
  --version                      Show placeport's version.

Behind a proxy:
  Lookups (and --api's requests) go through the proxy HTTPS_PROXY names (HTTP_PROXY for an
  http:// --api, and for Google when HTTPS_PROXY is unset; lower case first, as curl reads them),
  except to the hosts NO_PROXY names. A proxy that asks for a password takes it in its URL:
  HTTPS_PROXY=http://user:password@proxy.example:3128 (never printed). SOCKS proxies and
  ALL_PROXY are not supported: the summary says so when lookups could not get through.

The cache file:
  Places found in a run are kept, so running again (e.g. after Google refused some lookups) looks
  up only what is still missing. It holds a place id, its coordinates and an expiry (30 days) —
  never your links, titles, notes or lists. On this computer it is:
    ${cacheFile}
  ($XDG_CACHE_HOME/placeport/places-v1.json when XDG_CACHE_HOME is set; otherwise
  ~/.cache/placeport/ on Linux, ~/Library/Caches/placeport/ on macOS,
  %LOCALAPPDATA%\\placeport\\Cache\\ on Windows.) Delete it any time.

Output:
  One file per list and format (lists over 2,000 places are split into even parts, the most one
  Google My Maps layer takes) and, for a list with places left without coordinates, a
  failed-places CSV saying why for each (with the list's Tags column, when it had one): give it
  back to placeport convert to try those again. The summary counts them by reason. While looking
  up, progress (places done / total, the recent rate, time left) is shown on stderr: one line
  rewritten in place on a terminal, otherwise a line every 10 s. At most ${CAP} places are
  converted at once (all the lists of an archive together).
  Nothing already in the --out folder is replaced unless you say so: when files this run writes
  are there (or links, or folders of those names), placeport names them and stops without writing
  anything (before looking anything up, where it can tell). --force replaces files and symbolic
  links (the link itself, never the file it points to), and removes the list's files of an
  earlier run that this run does not write again (a failed-places CSV whose places are all placed
  now); a folder in the way is never replaced, and that list is reported as not written. Names
  are cut to fit every common disk (255 bytes), and Windows device names (CON, NUL, COM1, …) get
  a "_".

When Google cannot be reached:
  When requests to Google get no answer at all (no connection, DNS, refused connections), placeport
  stops looking up within seconds, writes every list with what has coordinates, puts the rest in
  the failed-places CSVs ("The lookup failed"), says why, and exits 3. Run with --offline to skip
  lookups on purpose.

Stopping a run:
  Ctrl-C (or SIGTERM, or SIGHUP when the terminal closes) stops the lookups, writes every list
  with what has coordinates and a failed-places CSV for the rest ("Not looked up: the run was
  interrupted"), prints the summary and exits 130 (143 for SIGTERM, 129 for SIGHUP). Places found
  so far are kept in the cache file (saved every 30 s during the lookups too, so even a run killed
  outright keeps most of them), so running the same command again (with --force) looks up only the
  rest. Ctrl-C twice stops at once (between two files: none is left half written).
  Once every place has its answer, Ctrl-C only ends the run after its files are written. Output
  that is no longer read (| head, a closed terminal) is dropped; the run goes on.

Retrying the failures:
  placeport convert "maps/Want to go - failed-places.csv" --out maps/
  writes the places found now to "Want to go (retry).kml" ("(retry 2)" and so on when that is
  there), leaving "Want to go.kml" as it was, and rewrites the failed-places CSV with only the
  places still missing (or removes it when every place is found) when --out is its own folder.
  No --force is needed.

Exit codes:
  0    every list was read, converted and written (places a lookup could not place are reported,
       not fatal; an empty list is not an error)
  1    bad input (not a ZIP, no lists, more than ${CAP} places, an unreadable list, an unknown
       --list), or files that could not be written (the other lists still are; the summary says why)
  2    wrong usage (unknown option, missing --out, --offline with --api, …), a cache file that
       is not placeport's (never written over), an --out folder that cannot be made or written,
       or files already in it without --force (nothing written)
  3    Google (or, with --api, the PlacePort API, or Google from it) could not be reached: lookups
       stopped, the lists were written with what had coordinates, the rest is in the failed-places
       CSVs
  130  interrupted by Ctrl-C (143: by SIGTERM; 129: by SIGHUP); what was found is written
  When several apply, the first of 130/143/129, 1, 3 is the code.`;
}
