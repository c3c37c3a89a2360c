package lockstep.nes.roms;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import lockstep.nes.ppu.Region;

/**
 * One ROM of the manifest: where it is, how its result is read, what is done to it while it
 * runs, how long it may run, and what outcome the project expects today.
 *
 * @param rom     path under the roms dir, with '/' separators
 * @param suite   the suite it is counted in (default: the folder under nes-test-roms/)
 * @param family  how the result is read
 * @param frames  frame limit (the run times out after it); null = the family's default
 * @param input   button presses, resets and power cycles by frame
 * @param expect  the expected outcome with the engine as it is
 * @param reason  why a ROM does not pass ("fail"/"known-fail"); required for those
 * @param address f8 family: the zero-page result byte, hex ("F8" if null)
 * @param pass    screen family: texts on screen that mean the ROM passed (any of them; a single
 *                string is read as a list of one)
 * @param fail    screen family: regular expressions (java.util.regex, searched in the screen text)
 *                that mean the ROM finished and failed; checked before {@code pass}
 * @param hashes  framehash family: the frames to hash and their checked hashes
 * @param log     nestest family: the golden log, path under the roms dir
 * @param note    anything a reader should know (what the ROM checks, how it was confirmed)
 * @param submapper the NES 2.0 submapper to run the board as, for iNES 1 files whose header cannot
 *                say which variant the ROM expects (e.g. mapper 4: 1 = MMC6, 4 = MMC3A); null = as
 *                the header says
 * @param region  the console to run it on ("ntsc", "pal" or "dendy"), for ROMs whose header does not
 *                say (most PAL test ROMs are plain iNES files); null = as the header says
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RomEntry(
        @JsonProperty(value = "rom", required = true) String rom,
        @JsonProperty("suite") String suite,
        @JsonProperty(value = "family", required = true) Family family,
        @JsonProperty("frames") Integer frames,
        @JsonProperty("input") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<InputEvent> input,
        @JsonProperty(value = "expect", required = true) Expect expect,
        @JsonProperty("reason") String reason,
        @JsonProperty("address") String address,
        @JsonProperty("pass") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) List<String> pass,
        @JsonProperty("fail") List<String> fail,
        @JsonProperty("hashes") List<HashCheck> hashes,
        @JsonProperty("log") String log,
        @JsonProperty("note") String note,
        @JsonProperty("submapper") Integer submapper,
        @JsonProperty("region") String region) {

    public RomEntry {
        input = input == null ? List.of() : List.copyOf(input);
        pass = pass == null ? null : List.copyOf(pass);
        fail = fail == null ? null : List.copyOf(fail);
        hashes = hashes == null ? null : List.copyOf(hashes);
    }

    /** An entry for a ROM not in the manifest: read with the $6000 protocol, expected to pass. */
    public static RomEntry adHoc(String rom, int frames) {
        return new RomEntry(rom, null, Family.STATUS_6000, frames, List.of(), Expect.PASS, null,
                null, null, null, null, null, null, null, null);
    }

    /** Checks the fields each family needs; throws IllegalArgumentException naming the ROM. */
    public void validate() {
        String where = "manifest entry " + rom + ": ";
        if (rom == null || rom.isEmpty() || rom.startsWith("/") || rom.contains("\\") || rom.contains("..")) {
            throw new IllegalArgumentException(where + "rom must be a relative path with '/' separators");
        }
        if (submapper != null && (submapper < 0 || submapper > 15)) {
            throw new IllegalArgumentException(where + "submapper must be 0-15");
        }
        if (region != null && Region.byId(region) == null) {
            throw new IllegalArgumentException(where + "region must be ntsc, pal or dendy");
        }
        if (frames != null && frames < 1) {
            throw new IllegalArgumentException(where + "frames must be >= 1");
        }
        if (expect != Expect.PASS && (reason == null || reason.isBlank())) {
            throw new IllegalArgumentException(where + "expect " + expect.id() + " needs a reason");
        }
        switch (family) {
            case F8 -> resultAddress();
            case SCREEN -> {
                if (pass == null || pass.isEmpty() || pass.contains("")) {
                    throw new IllegalArgumentException(where + "screen family needs \"pass\" text");
                }
                for (String f : fail != null ? fail : List.<String>of()) {
                    try {
                        java.util.regex.Pattern.compile(f);
                    } catch (java.util.regex.PatternSyntaxException ex) {
                        throw new IllegalArgumentException(where + "fail pattern \"" + f + "\": " + ex.getDescription());
                    }
                }
            }
            case FRAMEHASH -> {
                if (hashes == null || hashes.isEmpty()) {
                    throw new IllegalArgumentException(where + "framehash family needs \"hashes\"");
                }
                for (HashCheck h : hashes) {
                    if (h.recorded() && (h.note() == null || h.note().isBlank())) {
                        throw new IllegalArgumentException(where + "hash at frame " + h.frame()
                                + " needs a note \"checked by <who> on <date>: <what it shows>\"");
                    }
                }
            }
            case NESTEST -> {
                if (log == null || log.isEmpty()) {
                    throw new IllegalArgumentException(where + "nestest family needs \"log\"");
                }
            }
            default -> {
            }
        }
    }

    /** The suite: given, or the first folder under nes-test-roms/ (or the first folder). */
    @JsonIgnore
    public String suiteName() {
        if (suite != null) {
            return suite;
        }
        String[] parts = rom.split("/");
        if (parts.length >= 3 && parts[0].equals("nes-test-roms")) {
            return parts[1];
        }
        return parts.length >= 2 ? parts[0] : "(other)";
    }

    /** f8 family: the result byte's address. */
    @JsonIgnore
    public int resultAddress() {
        String a = address == null ? "F8" : address.replace("$", "");
        try {
            int v = Integer.parseInt(a, 16);
            if (v < 0 || v > 0x7FF) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("manifest entry " + rom + ": address \"" + address
                    + "\" is not a RAM address in hex");
        }
    }

    /** The frame limit: given, or the family's default. */
    @JsonIgnore
    public int frameLimit() {
        if (frames != null) {
            return frames;
        }
        return switch (family) {
            case STATUS_6000 -> 3600;
            case F8 -> 1200;
            case SCREEN -> 1800;
            case FRAMEHASH -> {
                int max = 1;
                for (HashCheck h : hashes) {
                    max = Math.max(max, h.frame());
                }
                yield max;
            }
            case NESTEST -> 1;
        };
    }

    /** A copy run on another console ({@code region}: "ntsc", "pal" or "dendy"). */
    public RomEntry withRegion(String newRegion) {
        return new RomEntry(rom, suite, family, frames, input, expect, reason, address, pass, fail,
                hashes, log, note, submapper, newRegion);
    }

    /** A copy with other hash checks (the update mode). */
    public RomEntry withHashes(List<HashCheck> newHashes) {
        return new RomEntry(rom, suite, family, frames, input, expect, reason, address, pass, fail,
                newHashes, log, note, submapper, region);
    }
}
