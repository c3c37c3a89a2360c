package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.RomHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** DMC DMA cycle stealing and the controller port, checked by ROMs that print their result. */
class DmcDmaRomTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "sprdma_and_dmc_dma/sprdma_and_dmc_dma.nes",
        "sprdma_and_dmc_dma/sprdma_and_dmc_dma_512.nes",
    })
    void spriteDmaWithDmcDma(String rom) throws Exception {
        RomHarness.Outcome o = RomHarness.run6000(rom, 600);
        assertEquals(0, o.code(), rom + " -> " + o);
    }

    private static String screenAfter(String rom, int frames) throws Exception {
        Console c = RomHarness.console(rom);
        for (int f = 0; f < frames; f++) {
            c.runFrame();
        }
        return RomHarness.screen(c);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dma_2007_write", "dma_4016_read", "read_write_2007"})
    void dmcDmaDuringReadsAndWritesPasses(String name) throws Exception {
        String screen = screenAfter("dmc_dma_during_read4/" + name + ".nes", 120);
        assertTrue(screen.contains(name + "\nPassed"), screen);
    }

    /** Prints only a CRC; its source lists the two outputs hardware gives (by CPU-PPU alignment). */
    @Test
    void dma2007ReadPrintsAHardwareCrc() throws Exception {
        String screen = screenAfter("dmc_dma_during_read4/dma_2007_read.nes", 120);
        String[] lines = screen.trim().split("\n");
        String crc = lines[lines.length - 1];
        assertTrue(List.of("159A7A8F", "5E3DF9C4").contains(crc), screen);
    }

    @Test
    void readJoy3ThoroughTest() throws Exception {
        String screen = screenAfter("read_joy3/thorough_test.nes", 300);
        assertTrue(screen.contains("Passed"), screen);
    }

    /** The ROM names a button and waits for it: press each one as asked, on controller 1. */
    @Test
    void readJoy3TestButtons() throws Exception {
        Console c = RomHarness.console("read_joy3/test_buttons.nes");
        String[] names = {"A", "B", "SELECT", "START", "UP", "DOWN", "LEFT", "RIGHT"};
        String screen = "";
        for (int f = 0; f < 600 && !screen.contains("Passed"); f++) {
            c.runFrame();
            screen = RomHarness.screen(c);
            String[] lines = screen.trim().split("\n");
            String last = lines[lines.length - 1].trim();
            int mask = 0;
            for (int i = 0; i < names.length; i++) {
                if (last.equalsIgnoreCase(names[i])) {
                    mask = 1 << i;
                }
            }
            c.setButtons(0, f % 20 < 10 ? mask : 0);
        }
        assertTrue(screen.contains("test_buttons\nPassed"), screen);
    }
}
