package lockstep.nes.roms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

/** The manifest's format, validation and coverage of the issues' acceptance lists. */
class ManifestTest {
    private static Manifest parse(String json) {
        return Manifest.parse(json.getBytes(StandardCharsets.UTF_8), "test.json");
    }

    @Test
    void builtInManifestCoversTheAcceptanceSuites() {
        Manifest m = Manifest.builtIn();
        Set<String> suites = new TreeSet<>();
        for (RomEntry e : m.entries()) {
            suites.add(e.suiteName());
        }
        for (String s : List.of("instr_test-v5", "instr_misc", "instr_timing", "cpu_timing_test6",
                "branch_timing_tests", "cpu_dummy_reads", "cpu_dummy_writes", "cpu_exec_space", "cpu_reset",
                "nes_instr_test", "blargg_nes_cpu_test5", "cpu_interrupts_v2", "ppu_vbl_nmi", "vbl_nmi_timing",
                "sprite_hit_tests_2005.10.05", "sprite_overflow_tests", "blargg_ppu_tests_2005.09.15b",
                "ppu_open_bus", "ppu_read_buffer", "oam_read", "oam_stress", "apu_test", "apu_reset",
                "blargg_apu_2005.07.30", "dmc_dma_during_read4", "sprdma_and_dmc_dma", "mmc3_test_2",
                "mmc3_irq_tests", "read_joy3", "other")) {
            assertTrue(suites.contains(s), "manifest lacks suite " + s);
        }
        assertNotNull(m.find("nes-test-roms/instr_test-v5/all_instrs.nes"));
        assertNotNull(m.find("nes-test-roms/instr_test-v5/official_only.nes"));
        assertEquals(Expect.PASS, m.find("nes-test-roms/other/nestest.nes").expect());
    }

    @Test
    void roundTripsThroughItsOwnWriter() {
        Manifest m = Manifest.builtIn();
        Manifest again = Manifest.parse(m.toJson().getBytes(StandardCharsets.UTF_8), "again");
        assertEquals(m.entries(), again.entries());
        assertEquals(m.toJson(), again.toJson());
    }

    @Test
    void writerReproducesTheBuiltInFileExactly() throws Exception {
        // So the update mode's rewrite changes only the hashes it reports.
        String file;
        try (java.io.InputStream in = Manifest.class.getResourceAsStream(Manifest.RESOURCE)) {
            file = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(file, Manifest.builtIn().toJson());
    }

    @Test
    void rejectsTyposAndMissingFields() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(
                "{\"roms\":[{\"rom\":\"a.nes\",\"family\":\"6000\",\"expect\":\"pass\",\"frame\":5}]}"));
        assertTrue(e.getMessage().startsWith("test.json: "), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> parse(
                "{\"roms\":[{\"rom\":\"a.nes\",\"family\":\"6001\",\"expect\":\"pass\"}]}"));
        assertThrows(IllegalArgumentException.class, () -> parse(
                "{\"roms\":[{\"rom\":\"a.nes\",\"family\":\"6000\",\"expect\":\"known-fail\"}]}"));
        assertThrows(IllegalArgumentException.class, () -> parse(
                "{\"roms\":[{\"rom\":\"a.nes\",\"family\":\"screen\",\"expect\":\"pass\"}]}"));
        assertThrows(IllegalArgumentException.class, () -> parse(
                "{\"roms\":[{\"rom\":\"a.nes\",\"family\":\"f8\",\"expect\":\"pass\",\"address\":\"ZZ\"}]}"));
        assertThrows(IllegalArgumentException.class, () -> parse(
                "{\"roms\":[{\"rom\":\"../a.nes\",\"family\":\"6000\",\"expect\":\"pass\"}]}"));
        assertThrows(IllegalArgumentException.class, () -> parse(
                "{\"roms\":[{\"rom\":\"a.nes\",\"family\":\"6000\",\"expect\":\"pass\"},"
                + "{\"rom\":\"a.nes\",\"family\":\"6000\",\"expect\":\"pass\"}]}"));
        assertThrows(IllegalArgumentException.class, () -> parse(
                "{\"roms\":[{\"rom\":\"a.nes\",\"family\":\"6000\",\"expect\":\"pass\","
                + "\"input\":[{\"frame\":3,\"buttons\":\"X\"}]}]}"));
        assertThrows(IllegalArgumentException.class, () -> parse(
                "{\"roms\":[{\"rom\":\"a.nes\",\"family\":\"framehash\",\"expect\":\"pass\","
                + "\"hashes\":[{\"frame\":3,\"hash\":\"0123\"}]}]}"));
    }

    @Test
    void readsEveryField() {
        Manifest m = parse("{\"roms\":[{\"rom\":\"d/a.nes\",\"suite\":\"S\",\"family\":\"screen\",\"frames\":9,"
                + "\"input\":[{\"frame\":2,\"buttons\":\"A+START\",\"port\":1},{\"frame\":4,\"reset\":true}],"
                + "\"expect\":\"fail\",\"reason\":\"r\",\"pass\":\"OK\",\"fail\":[\"NO\"],\"note\":\"n\"}]}");
        RomEntry e = m.find("d/a.nes");
        assertEquals("S", e.suiteName());
        assertEquals(9, e.frameLimit());
        assertEquals(0x09, e.input().get(0).mask());
        assertEquals(1, e.input().get(0).port());
        assertTrue(e.input().get(1).reset());
        assertEquals(Expect.FAIL, e.expect());
        assertEquals(List.of("NO"), e.fail());
        assertEquals("d", RomEntry.adHoc("d/x.nes", 1).suiteName());
        assertEquals("instr_misc", RomEntry.adHoc("nes-test-roms/instr_misc/rom_singles/x.nes", 1).suiteName());
    }
}
