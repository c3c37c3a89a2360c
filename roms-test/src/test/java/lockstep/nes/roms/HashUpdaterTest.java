package lockstep.nes.roms;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The frame-hash update mode: records, marks UNCHECKED, never passes until a person checks. */
class HashUpdaterTest {
    @TempDir
    Path dir;

    @Test
    void recordsHashesOnlyOnRequestAndNeedsAPersonToCheckThem() throws Exception {
        // Sets the backdrop to colour $21 and loops: a known, stable picture.
        TestRoms.Code c = new TestRoms.Code()
                .store(0x2006, 0x3F).store(0x2006, 0x00).store(0x2007, 0x21).forever();
        TestRoms.write(dir, "pic.nes", c);
        Path file = dir.resolve("manifest.json");
        Files.writeString(file, "{\"roms\":[{\"rom\":\"pic.nes\",\"family\":\"framehash\",\"expect\":\"pass\","
                + "\"hashes\":[{\"frame\":5},{\"frame\":9}]}]}");
        RomRunner runner = new RomRunner(dir);
        Manifest m = Manifest.load(file);
        RomResult before = runner.run(m.find("pic.nes"));
        assertEquals(Status.FAIL, before.status());
        assertTrue(before.message().contains("(not recorded)"), before.message());

        ByteArrayOutputStream text = new ByteArrayOutputStream();
        HashUpdater u = new HashUpdater(runner, dir.resolve("pics"), "2026-01-02");
        int changed = u.update(file, m, m.entries(), new PrintStream(text, true, StandardCharsets.UTF_8));
        assertEquals(2, changed);
        String out = text.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("pic.nes frame 5: (none) -> "), out);
        assertTrue(out.endsWith("2 hashes changed, 0 unchanged (" + file + " rewritten)\n"), out);
        assertTrue(Files.isRegularFile(dir.resolve("pics/pic-f5.png")));

        Manifest updated = Manifest.load(file);
        HashCheck h = updated.find("pic.nes").hashes().get(0);
        assertEquals(FrameHash.of(pictureAt(runner, updated.find("pic.nes"))), h.hash());
        assertTrue(h.note().startsWith(HashCheck.UNCHECKED), h.note());
        RomResult unchecked = runner.run(updated.find("pic.nes"));
        assertEquals(Status.FAIL, unchecked.status(), "an UNCHECKED hash does not pass");
        assertTrue(unchecked.message().contains("not yet checked by a person"), unchecked.message());

        // A person looks and signs the notes: now it passes, and another update changes nothing.
        java.util.List<HashCheck> signedHashes = new java.util.ArrayList<>();
        for (HashCheck x : updated.find("pic.nes").hashes()) {
            signedHashes.add(new HashCheck(x.frame(), x.hash(), "checked by tester on 2026-01-02: a plain backdrop"));
        }
        Files.writeString(file, updated.replace(java.util.Map.of("pic.nes",
                updated.find("pic.nes").withHashes(signedHashes))).toJson());
        Manifest signed = Manifest.load(file);
        assertEquals(Status.PASS, runner.run(signed.find("pic.nes")).status());
        String json = Files.readString(file);
        text.reset();
        assertEquals(0, u.update(file, signed, signed.entries(), new PrintStream(text, true, StandardCharsets.UTF_8)));
        assertEquals(json, Files.readString(file), "no change: file untouched");
        assertEquals("0 hashes changed, 2 unchanged\n", text.toString(StandardCharsets.UTF_8));
    }

    private static short[] pictureAt(RomRunner runner, RomEntry e) {
        java.util.List<short[]> pics = new java.util.ArrayList<>();
        runner.run(e, pics);
        return pics.get(0);
    }
}
