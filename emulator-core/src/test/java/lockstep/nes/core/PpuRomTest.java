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
}
