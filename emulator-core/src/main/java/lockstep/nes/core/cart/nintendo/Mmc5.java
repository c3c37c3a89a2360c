package lockstep.nes.core.cart.nintendo;

import lockstep.nes.core.apu.ExpansionAudio;
import lockstep.nes.core.cart.BoardHooks;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.Memory;
import lockstep.nes.state.NotState;
import lockstep.nes.state.StateVisitor;

/**
 * Mapper 5: the MMC5 (ExROM boards).
 * <pre>
 *  $5100 PRG mode: 0 one 32 KiB bank ($5117), 1 two 16 KiB ($5115, $5117), 2 16+8+8 KiB
 *        ($5115, $5116, $5117), 3 four 8 KiB ($5114-$5117)
 *  $5101 CHR mode: 0 8 KiB, 1 4 KiB, 2 2 KiB, 3 1 KiB pages
 *  $5102/$5103 PRG-RAM write protection: writable only while they hold 2 and 1
 *  $5104 ExRAM mode: 0 nametable, 1 extended attributes, 2 RAM, 3 read-only RAM
 *  $5105 nametables, two bits each: 0 CIRAM page 0, 1 CIRAM page 1, 2 ExRAM, 3 fill mode
 *  $5106/$5107 fill-mode tile and palette
 *  $5113 PRG-RAM bank at $6000; $5114-$5116 bit 7 set = ROM, clear = RAM; $5117 always ROM
 *  $5120-$5127 CHR set A (sprites; everything with 8x8 sprites), $5128-$512B set B
 *        (background with 8x16 sprites); $5130 the upper two bits of the next bank written
 *  $5200-$5202 vertical split (enable, right side, tile; scroll; 4 KiB CHR bank)
 *  $5203 IRQ scanline, $5204 IRQ enable (write) / pending and in-frame (read, clears pending)
 *  $5205/$5206 unsigned 8x8 multiplier: write the factors, read the product's low/high byte
 *  $5C00-$5FFF ExRAM (1 KiB)
 *  $5000-$5015 the sound ({@link Mmc5Audio})
 * </pre>
 * The MMC5 sees only the PPU's bus: it finds the start of each rendered scanline by three
 * consecutive reads of the same nametable address (the two unused fetches at the end of a line
 * and the first fetch of the next), counts the reads after it to tell background fetches
 * (reads 0-127 and 160-167 of a line) from sprite fetches (128-159), and leaves the frame when
 * three CPU cycles pass without a PPU read, or when the CPU fetches the NMI vector. It watches
 * PPUCTRL ($2000, not its mirrors) for the sprite size.
 */
public final class Mmc5 extends Mapper {
    /** Reads in a line's background fetches before the sprite fetches, and the sprite fetches' end. */
    private static final int SPRITE_FETCHES = 128;
    private static final int SPRITE_FETCHES_END = 160;

    private final Memory exRam = new Memory("exRam", Memory.MAPPER, 1024);
    private final Mmc5Audio audio = new Mmc5Audio();
    /** Bytes of PRG-RAM: two 8 KiB chips at 16 KiB, otherwise one chip. */
    private final int ramSize;

    private int prgMode;
    private int chrMode;
    private int ramProtect1;
    private int ramProtect2;
    private int exRamMode;
    private int ntMapping;
    private int fillTile;
    private int fillColor;
    /** $5113-$5117. */
    private final int[] prgRegs = new int[5];
    /** $5120-$512B, each with the two bits of $5130 at its write above its eight. */
    private final int[] chrRegs = new int[12];
    private int chrUpper;
    /** The last CHR register written was one of set B (only with 8x16 sprites). */
    private boolean lastWrittenB;
    private int splitControl;
    private int splitScroll;
    private int splitBank;
    private int irqScanline;
    private boolean irqEnabled;
    private boolean irqPending;
    private int multiplicand;
    private int multiplier;
    /** PPUCTRL bit 5 as last written: 8x16 sprites. */
    private boolean tallSprites;

    // The scanline detector.
    private boolean inFrame;
    private int scanline;
    private int lastReadAddr;
    /** Consecutive reads of {@link #lastReadAddr} after the first, up to 2. */
    private int sameReads;
    /** CPU cycles left before the PPU counts as idle (no read in the last three). */
    private int idleCycles;
    /** PPU reads since the scanline started (the detecting read is 0), up to 255. */
    private int fetchIndex;
    /** Extended attributes: the ExRAM byte of the tile being fetched. */
    private int exAttribute;
    /** The tile being fetched comes from the vertical split, at {@link #splitTile} in ExRAM. */
    private boolean inSplit;
    private int splitTile;

    // Page tables derived from the registers.
    @NotState("bank cache")
    private final int[] chrA = new int[8];
    @NotState("bank cache")
    private final int[] chrB = new int[8];
    /** PRG-RAM offset of each 8 KiB CPU page $6000-$E000, or -1 for ROM (or no RAM: open bus at $6000). */
    @NotState("bank cache")
    private final int[] ramPage = new int[5];
    @NotState("bank cache")
    private boolean ramWritable;
    /** CHR bytes (ROM or RAM) for pattern reads. */
    @NotState("CHR-ROM / CHR-RAM array")
    private final byte[] pattern;

    public Mmc5(Cartridge cart) {
        super(cart, prgRamSize(cart));
        this.ramSize = prgRam == null ? 0 : prgRam.size();
        this.pattern = chrRam != null ? chrRam.array() : chr;
    }

    /**
     * The NES 2.0 header's PRG-RAM; an iNES header cannot say, so 64 KiB (every bank number
     * distinct), which serves the games made for 8, 16 or 32 KiB too.
     */
    private static int prgRamSize(Cartridge cart) {
        return cart.isNes2() ? cart.totalPrgRamSize() : 65536;
    }

    @Override
    protected int declaredHooks() {
        return BoardHooks.CPU_CYCLE | BoardHooks.IRQ | BoardHooks.CPU_READ | BoardHooks.PPU_BUS
                | BoardHooks.PPU_REGISTERS | BoardHooks.AUDIO;
    }

    @Override
    public ExpansionAudio expansionAudio() {
        return audio;
    }

    // ---- CPU side ----------------------------------------------------------------------------

    @Override
    public void cpuCycle() {
        super.cpuCycle();
        if (idleCycles > 0 && --idleCycles == 0) {
            inFrame = false;
        }
    }

    @Override
    public boolean irq() {
        return (irqPending && irqEnabled) || audio.irq();
    }

    @Override
    public int cpuRead(int addr) {
        if (addr == 0x5204) {
            final int v = status();
            irqPending = false;
            return v;
        }
        if (addr == 0xFFFA || addr == 0xFFFB) {
            // The NMI vector fetch: the MMC5 takes it as the end of the frame.
            inFrame = false;
            scanline = 0;
            lastReadAddr = 0;
            irqPending = false;
            noteChange();
        }
        if (addr == 0x5010) {
            return audio.readPcmStatus();
        }
        if (addr == 0x5015) {
            return audio.readStatus();
        }
        final int v = cpuPeek(addr);
        if (addr >= 0x8000 && addr < 0xC000) {
            // The PCM's read mode takes the bytes the CPU reads here.
            audio.prgRead(v);
        }
        return v;
    }

    private int status() {
        return (irqPending ? 0x80 : 0) | (inFrame ? 0x40 : 0);
    }

    @Override
    public int cpuPeek(int addr) {
        if (addr >= 0x6000) {
            final int page = ramPage[(addr - 0x6000) >> 13];
            if (page >= 0) {
                return prgRam.read(page | (addr & 0x1FFF));
            }
            return addr >= 0x8000 ? prg[prgPage[(addr >> 13) & 3] | (addr & 0x1FFF)] & 0xFF : OPEN_BUS;
        }
        if (addr >= 0x5C00) {
            return exRamMode >= 2 ? exRam.read(addr & 0x3FF) : OPEN_BUS;
        }
        return switch (addr) {
            case 0x5204 -> status();
            case 0x5010 -> audio.peekPcmStatus();
            case 0x5015 -> audio.status();
            case 0x5205 -> (multiplicand * multiplier) & 0xFF;
            case 0x5206 -> (multiplicand * multiplier) >> 8;
            default -> OPEN_BUS;
        };
    }

    @Override
    public void cpuWrite(int addr, int value) {
        if (addr >= 0x6000) {
            if (addr < 0xE000 && ramWritable) {
                final int page = ramPage[(addr - 0x6000) >> 13];
                if (page >= 0) {
                    prgRam.write(page | (addr & 0x1FFF), value);
                }
            }
            return;
        }
        if (addr >= 0x5C00) {
            if (exRamMode <= 1) {
                // Modes 0 and 1 take CPU writes only while the PPU renders; otherwise 0 is written.
                exRam.write(addr & 0x3FF, inFrame ? value : 0);
            } else if (exRamMode == 2) {
                exRam.write(addr & 0x3FF, value);
            }
            return;
        }
        if (addr >= 0x5113 && addr <= 0x5117) {
            prgRegs[addr - 0x5113] = value;
        } else if (addr >= 0x5120 && addr <= 0x512B) {
            chrRegs[addr - 0x5120] = value | (chrUpper << 8);
            lastWrittenB = tallSprites && addr >= 0x5128;
        } else {
            switch (addr) {
                case 0x5100 -> prgMode = value & 3;
                case 0x5101 -> chrMode = value & 3;
                case 0x5102 -> ramProtect1 = value & 3;
                case 0x5103 -> ramProtect2 = value & 3;
                case 0x5104 -> exRamMode = value & 3;
                case 0x5105 -> ntMapping = value;
                case 0x5106 -> fillTile = value;
                case 0x5107 -> fillColor = value & 3;
                case 0x5130 -> chrUpper = value & 3;
                case 0x5200 -> splitControl = value & 0xDF;
                case 0x5201 -> splitScroll = value;
                case 0x5202 -> splitBank = value;
                case 0x5203 -> irqScanline = value;
                case 0x5204 -> irqEnabled = (value & 0x80) != 0;
                case 0x5205 -> multiplicand = value;
                case 0x5206 -> multiplier = value;
                default -> {
                    if (addr >= 0x5000 && addr <= 0x5015) {
                        audio.write(addr, value);
                    }
                    return;
                }
            }
        }
        updateBanks();
    }

    @Override
    public void ppuRegisterWrite(int addr, int value) {
        if (addr == 0x2000) {
            tallSprites = (value & 0x20) != 0;
            if (!tallSprites) {
                // With 8x8 sprites set A serves every access, whatever was written last.
                lastWrittenB = false;
            }
            updateBanks();
        }
    }

    // ---- PPU side ----------------------------------------------------------------------------

    @Override
    public int ppuRead(int addr) {
        idleCycles = 3;
        detectScanline(addr);
        if (!inFrame) {
            return addr < 0x2000 ? pattern[chrPage[addr >> 10] | (addr & 0x3FF)] & 0xFF : nametable(addr);
        }
        final int i = fetchIndex;
        if (i >= SPRITE_FETCHES && i < SPRITE_FETCHES_END) {
            return addr < 0x2000 ? pattern[chrA[addr >> 10] | (addr & 0x3FF)] & 0xFF : nametable(addr);
        }
        if (i >= SPRITE_FETCHES_END + 8) {
            // The two unused nametable fetches at the end of the line.
            return addr < 0x2000 ? pattern[chrPage[addr >> 10] | (addr & 0x3FF)] & 0xFF : nametable(addr);
        }
        return backgroundRead(addr, i & 3, i < SPRITE_FETCHES ? (i >> 2) + 2 : (i - SPRITE_FETCHES_END) >> 2);
    }

    /**
     * The scanline detector: the third consecutive read of one nametable address starts a line
     * (the first of a frame sets the in-frame flag and clears the counter; the others count and
     * compare with $5203).
     */
    private void detectScanline(int addr) {
        if (addr >= 0x2000 && addr < 0x3000 && addr == lastReadAddr) {
            if (sameReads < 2) {
                sameReads++;
            }
        } else {
            sameReads = 0;
        }
        lastReadAddr = addr;
        if (sameReads == 2) {
            if (!inFrame) {
                inFrame = true;
                scanline = 0;
            } else {
                scanline = (scanline + 1) & 0xFF;
                if (scanline == irqScanline) {
                    irqPending = true;
                }
            }
            fetchIndex = 0;
        } else if (fetchIndex < 255) {
            fetchIndex++;
        }
    }

    /**
     * A background fetch of tile {@code tile} of the line (0-33; 0 and 1 are fetched on the line
     * before), {@code phase} 0 nametable, 1 attribute, 2 and 3 pattern planes.
     */
    private int backgroundRead(int addr, int phase, int tile) {
        if ((splitControl & 0x80) != 0 && exRamMode <= 1) {
            final int y = (splitScroll + scanline) % 240;
            if (phase == 0) {
                final boolean right = (splitControl & 0x40) != 0;
                final int edge = splitControl & 0x1F;
                inSplit = tile <= 32 && (right ? tile >= edge : tile < edge);
                if (inSplit) {
                    splitTile = ((y & 0xF8) << 2) | tile;
                    return exRam.read(splitTile);
                }
            } else if (inSplit) {
                if (phase == 1) {
                    return exRam.read(0x3C0 | ((splitTile & 0x380) >> 4) | ((splitTile & 0x1F) >> 2));
                }
                // The split's 4 KiB bank, rows by the split's own fine scroll.
                final int bank = Math.floorMod(splitBank, Math.max(1, chrBanks >> 2));
                return pattern[(bank << 12) | (((addr & ~7) | (y & 7)) & 0xFFF)] & 0xFF;
            }
        }
        if (exRamMode == 1) {
            // Extended attributes: the tile's ExRAM byte gives its palette (bits 6-7) and, with
            // $5130, its 4 KiB CHR bank (bits 0-5).
            if (phase == 0) {
                exAttribute = exRam.read(addr & 0x3FF);
            } else if (phase == 1) {
                return (exAttribute >> 6) * 0x55;
            } else {
                final int bank = Math.floorMod((exAttribute & 0x3F) | (chrUpper << 6), Math.max(1, chrBanks >> 2));
                return pattern[(bank << 12) | (addr & 0xFFF)] & 0xFF;
            }
        }
        if (addr < 0x2000) {
            final int[] set = tallSprites ? chrB : chrA;
            return pattern[set[addr >> 10] | (addr & 0x3FF)] & 0xFF;
        }
        return nametable(addr);
    }

    /** A nametable read through $5105: CIRAM, ExRAM (zeros in modes 2 and 3), or the fill tile. */
    private int nametable(int addr) {
        final int slot = (addr >> 10) & 3;
        switch ((ntMapping >> (slot * 2)) & 3) {
            case 2 -> {
                return exRamMode <= 1 ? exRam.read(addr & 0x3FF) : 0;
            }
            case 3 -> {
                return (addr & 0x3FF) < 0x3C0 ? fillTile : fillColor * 0x55;
            }
            default -> {
                return ciram.read(ntPage[slot] | (addr & 0x3FF));
            }
        }
    }

    @Override
    public void ppuWrite(int addr, int value) {
        if (addr < 0x2000) {
            if (chrRam != null) {
                chrRam.write(chrPage[addr >> 10] | (addr & 0x3FF), value);
            }
            return;
        }
        final int slot = (addr >> 10) & 3;
        switch ((ntMapping >> (slot * 2)) & 3) {
            case 2 -> {
                if (exRamMode <= 1) {
                    exRam.write(addr & 0x3FF, value);
                }
            }
            case 3 -> {
                // The fill nametable is not memory.
            }
            default -> ciram.write(ntPage[slot] | (addr & 0x3FF), value);
        }
    }

    // ---- banks -------------------------------------------------------------------------------

    @Override
    protected void powerOn() {
        prgMode = 3;
        chrMode = 0;
        ramProtect1 = 0;
        ramProtect2 = 0;
        exRamMode = 0;
        ntMapping = 0;
        fillTile = 0;
        fillColor = 0;
        for (int i = 0; i < 5; i++) {
            prgRegs[i] = 0;
        }
        // The last PRG bank is mapped at power-on (the reset vector); games expect $5117 = $FF.
        prgRegs[4] = 0xFF;
        for (int i = 0; i < 12; i++) {
            chrRegs[i] = 0;
        }
        chrUpper = 0;
        lastWrittenB = false;
        splitControl = 0;
        splitScroll = 0;
        splitBank = 0;
        irqScanline = 0;
        irqEnabled = false;
        irqPending = false;
        multiplicand = 0;
        multiplier = 0;
        tallSprites = false;
        inFrame = false;
        scanline = 0;
        lastReadAddr = 0;
        sameReads = 0;
        idleCycles = 0;
        fetchIndex = 0;
        exAttribute = 0;
        inSplit = false;
        splitTile = 0;
        exRam.fill(0);
        audio.power();
    }

    @Override
    protected void updateBanks() {
        ramPage[0] = ramOffset(prgRegs[0]);
        switch (prgMode) {
            case 0 -> {
                for (int i = 0; i < 4; i++) {
                    romPage(i, (prgRegs[4] & 0x7C) | i);
                }
            }
            case 1 -> {
                page16(0, prgRegs[2]);
                romPage(2, prgRegs[4] & 0x7E);
                romPage(3, prgRegs[4] & 0x7E | 1);
            }
            case 2 -> {
                page16(0, prgRegs[2]);
                page8(2, prgRegs[3]);
                romPage(3, prgRegs[4] & 0x7F);
            }
            default -> {
                page8(0, prgRegs[1]);
                page8(1, prgRegs[2]);
                page8(2, prgRegs[3]);
                romPage(3, prgRegs[4] & 0x7F);
            }
        }
        ramWritable = ramProtect1 == 2 && ramProtect2 == 1;
        final boolean ram6000 = ramPage[0] >= 0;
        prgRamBank(ram6000 ? ramPage[0] >> 13 : 0, ram6000, ram6000 && ramWritable);

        chrSets();
        chrPage(tallSprites && lastWrittenB ? chrB : chrA);
        for (int i = 0; i < 4; i++) {
            ntPage[i] = ((ntMapping >> (i * 2)) & 1) << 10;
        }
    }

    /** CPU page {@code slot} (0-3 = $8000-$E000) to 8 KiB PRG bank {@code bank} of ROM. */
    private void romPage(int slot, int bank) {
        ramPage[slot + 1] = -1;
        prg8(slot, bank);
    }

    /** An 8 KiB page from a register: ROM when bit 7 is set, else PRG-RAM. */
    private void page8(int slot, int reg) {
        if ((reg & 0x80) != 0) {
            romPage(slot, reg & 0x7F);
        } else {
            prg8(slot, 0);
            ramPage[slot + 1] = ramOffset(reg);
        }
    }

    /** A 16 KiB page at slots {@code slot}, {@code slot}+1 from a register (bit 0 ignored). */
    private void page16(int slot, int reg) {
        page8(slot, reg & ~1);
        page8(slot + 1, reg | 1);
    }

    /**
     * The PRG-RAM offset of bank number {@code reg} (bits 0-2), or -1 where no chip answers: two
     * 8 KiB chips (16 KiB) are told apart by bit 2; one chip answers bank numbers 0-3 (all
     * eight at 64 KiB), wrapping at its size.
     */
    private int ramOffset(int reg) {
        final int bank = reg & 7;
        if (ramSize == 0) {
            return -1;
        }
        if (ramSize == 16384) {
            return (bank >> 2) << 13;
        }
        if (bank >= 4 && ramSize < 65536) {
            return -1;
        }
        return (bank % Math.max(1, ramSize >> 13)) << 13;
    }

    /** Rebuilds the two CHR page tables from the registers and the CHR mode. */
    private void chrSets() {
        for (int p = 0; p < 8; p++) {
            final int size;
            final int regA;
            final int regB;
            switch (chrMode) {
                case 0 -> {
                    size = 8;
                    regA = 7;
                    regB = 11;
                }
                case 1 -> {
                    size = 4;
                    regA = p < 4 ? 3 : 7;
                    regB = 11;
                }
                case 2 -> {
                    size = 2;
                    regA = (p | 1) & 7;
                    regB = 8 + ((p & 2) | 1);
                }
                default -> {
                    size = 1;
                    regA = p;
                    regB = 8 + (p & 3);
                }
            }
            final int within = p & (size - 1);
            chrA[p] = Math.floorMod(chrRegs[regA] * size + within, chrBanks) << 10;
            chrB[p] = Math.floorMod(chrRegs[regB] * size + within, chrBanks) << 10;
        }
    }

    private void chrPage(int[] set) {
        System.arraycopy(set, 0, chrPage, 0, 8);
    }

    @Override
    protected void registers(StateVisitor s) {
        exRam.state(s);
        prgMode = s.u8("prgMode", prgMode, 3);
        chrMode = s.u8("chrMode", chrMode, 3);
        ramProtect1 = s.u8("ramProtect1", ramProtect1, 3);
        ramProtect2 = s.u8("ramProtect2", ramProtect2, 3);
        exRamMode = s.u8("exRamMode", exRamMode, 3);
        ntMapping = s.u8("ntMapping", ntMapping);
        fillTile = s.u8("fillTile", fillTile);
        fillColor = s.u8("fillColor", fillColor, 3);
        s.ints("prgRegs", prgRegs, 0, 0xFF);
        s.ints("chrRegs", chrRegs, 0, 0x3FF);
        chrUpper = s.u8("chrUpper", chrUpper, 3);
        lastWrittenB = s.bool("lastWrittenB", lastWrittenB);
        splitControl = s.u8("splitControl", splitControl);
        splitScroll = s.u8("splitScroll", splitScroll);
        splitBank = s.u8("splitBank", splitBank);
        irqScanline = s.u8("irqScanline", irqScanline);
        irqEnabled = s.bool("irqEnabled", irqEnabled);
        irqPending = s.bool("irqPending", irqPending);
        multiplicand = s.u8("multiplicand", multiplicand);
        multiplier = s.u8("multiplier", multiplier);
        tallSprites = s.bool("tallSprites", tallSprites);
        inFrame = s.bool("inFrame", inFrame);
        scanline = s.u8("scanline", scanline);
        lastReadAddr = s.u16("lastReadAddr", lastReadAddr, 0x3FFF);
        sameReads = s.u8("sameReads", sameReads, 2);
        idleCycles = s.u8("idleCycles", idleCycles, 3);
        fetchIndex = s.u8("fetchIndex", fetchIndex);
        exAttribute = s.u8("exAttribute", exAttribute);
        inSplit = s.bool("inSplit", inSplit);
        splitTile = s.u16("splitTile", splitTile, 0x3FF);
        s.section("audio", audio);
    }
}
