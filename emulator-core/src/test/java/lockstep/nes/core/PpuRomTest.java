package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** PPU test ROMs run through the whole console. */
class PpuRomTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "01-vbl_basics", "02-vbl_set_time", "03-vbl_clear_time", "04-nmi_control", "05-nmi_timing",
        "06-suppression", "07-nmi_on_timing", "08-nmi_off_timing", "09-even_odd_frames",
        "10-even_odd_timing"})
    void ppuVblNmi(String name) throws Exception {
        RomHarness.Outcome o = RomHarness.run6000("ppu_vbl_nmi/rom_singles/" + name + ".nes", 3000);
        assertEquals(0, o.code(), o.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "1.frame_basics", "2.vbl_timing", "3.even_odd_frames", "4.vbl_clear_timing",
        "5.nmi_suppression", "6.nmi_disable", "7.nmi_timing"})
    void vblNmiTiming(String name) throws Exception {
        RomHarness.Outcome o = RomHarness.runF8("vbl_nmi_timing/" + name + ".nes", 3000);
        assertEquals(1, o.code(), o.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "sprite_hit_tests_2005.10.05/01.basics", "sprite_hit_tests_2005.10.05/02.alignment",
        "sprite_hit_tests_2005.10.05/03.corners", "sprite_hit_tests_2005.10.05/04.flip",
        "sprite_hit_tests_2005.10.05/05.left_clip", "sprite_hit_tests_2005.10.05/06.right_edge",
        "sprite_hit_tests_2005.10.05/07.screen_bottom", "sprite_hit_tests_2005.10.05/08.double_height",
        "sprite_hit_tests_2005.10.05/09.timing_basics", "sprite_hit_tests_2005.10.05/10.timing_order",
        "sprite_hit_tests_2005.10.05/11.edge_timing",
        "sprite_overflow_tests/1.Basics", "sprite_overflow_tests/2.Details", "sprite_overflow_tests/3.Timing",
        "sprite_overflow_tests/4.Obscure", "sprite_overflow_tests/5.Emulator"})
    void resultInF8(String name) throws Exception {
        RomHarness.Outcome o = RomHarness.runF8(name + ".nes", 3000);
        assertEquals(1, o.code(), o.toString());
    }

    /** The 2005 PPU tests keep their result in $F0 (and print it on screen). */
    @ParameterizedTest
    @ValueSource(strings = {"palette_ram", "power_up_palette", "sprite_ram", "vbl_clear_time", "vram_access"})
    void blarggPpuTests(String name) throws Exception {
        RomHarness.Outcome o = RomHarness.runZeroPage("blargg_ppu_tests_2005.09.15b/" + name + ".nes", 0xF0, 1200);
        assertEquals(1, o.code(), o.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "ppu_open_bus/ppu_open_bus", "ppu_read_buffer/test_ppu_read_buffer", "oam_read/oam_read",
        "oam_stress/oam_stress"})
    void resultIn6000(String name) throws Exception {
        RomHarness.Outcome o = RomHarness.run6000(name + ".nes", 6000);
        assertEquals(0, o.code(), o.toString());
    }
}
