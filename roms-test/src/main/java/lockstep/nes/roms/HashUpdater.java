package lockstep.nes.roms;

import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lockstep.nes.core.AtomicFile;

/**
 * The update mode for frame hashes: runs framehash entries, saves the picture of every check
 * frame as PNG for a person to look at, and rewrites the hashes that changed in the manifest
 * file. A rewritten hash gets a note starting with "UNCHECKED", so it fails until a person
 * replaces the note with "checked by NAME on DATE: what it shows".
 */
public final class HashUpdater {
    private final RomRunner runner;
    private final Path pictureDir;
    private final String today;

    public HashUpdater(RomRunner runner, Path pictureDir, String today) {
        this.runner = runner;
        this.pictureDir = pictureDir;
        this.today = today;
    }

    /**
     * Updates {@code manifestFile} for the framehash entries among {@code selected}; prints each
     * change to {@code out}; returns the number of hashes changed (the file is written only when
     * that is > 0).
     */
    public int update(Path manifestFile, Manifest manifest, List<RomEntry> selected, PrintStream out)
            throws IOException {
        Map<String, RomEntry> replaced = new LinkedHashMap<>();
        int changed = 0;
        int same = 0;
        for (RomEntry e : selected) {
            if (e.family() != Family.FRAMEHASH || manifest.find(e.rom()) == null) {
                continue;
            }
            List<short[]> pictures = new ArrayList<>();
            RomResult r = runner.run(e, pictures);
            if (r.status() == Status.ERROR || pictures.size() != e.hashes().size()) {
                out.println(e.rom() + ": not updated (" + r.status().id() + ": " + r.oneLineMessage() + ")");
                continue;
            }
            List<HashCheck> next = new ArrayList<>();
            for (int i = 0; i < pictures.size(); i++) {
                HashCheck h = e.hashes().get(i);
                String hash = FrameHash.of(pictures.get(i));
                Path png = pictureDir.resolve(FramePng.fileName(e.rom(), "-f" + h.frame()));
                FramePng.write(pictures.get(i), png);
                if (hash.equalsIgnoreCase(h.hash() == null ? "" : h.hash())) {
                    next.add(h);
                    same++;
                } else {
                    changed++;
                    out.println(e.rom() + " frame " + h.frame() + ": " + (h.recorded() ? h.hash() : "(none)")
                            + " -> " + hash + "  (look at " + png + ")");
                    next.add(new HashCheck(h.frame(), hash, HashCheck.UNCHECKED + ": recorded by test-roms"
                            + " --update-hashes on " + today + "; a person must look at the PNG and replace this"
                            + " note with \"checked by NAME on DATE: what it shows\""));
                }
            }
            replaced.put(e.rom(), e.withHashes(next));
        }
        if (changed > 0) {
            String json = manifest.replace(replaced).toJson();
            AtomicFile.write(manifestFile, json.getBytes(StandardCharsets.UTF_8));
        }
        out.println(changed + " hash" + (changed == 1 ? "" : "es") + " changed, " + same + " unchanged"
                + (changed > 0 ? " (" + manifestFile + " rewritten)" : ""));
        return changed;
    }
}
