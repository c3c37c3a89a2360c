package lockstep.nes.core.cart.fds;

import lockstep.nes.core.demo.Assembler;

/**
 * A stand-in for the disk system's BIOS, written for the tests: it reads the first side's
 * blocks through the RAM adapter's registers (polling the transfer flag), appends a file (a
 * header and a data block, with their CRCs), restarts the motor and reads the side again with
 * the new file's data taken by the transfer IRQ, then runs the timer IRQ once.
 *
 * <p>Results: disk info at $0300, file amount at $0340, file header at $0350, the file's data
 * block at $6000 (PRG-RAM); the new file's header read back at $0360 and its data block, byte by
 * byte from the IRQ handler, at $0400; {@code crcbad} ($14) non-zero when any block's CRC failed;
 * {@code done} ($16) 1 after the write, 2 after the second reading, 3 after the timer IRQ.
 */
final class TestBios {
    private TestBios() {
    }

    /** The new file's data block: code 4 and 32 bytes. */
    static final byte[] NEW_DATA = new byte[33];
    /** The new file's header block. */
    static final byte[] NEW_HEADER = {3, 1, 1, 'N', 'E', 'W', 'F', 'I', 'L', 'E', ' ', 0x00, 0x70, 32, 0, 0};
    /** The timer's reload value the stand-in writes. */
    static final int TIMER_RELOAD = 1000;

    static {
        NEW_DATA[0] = 4;
        for (int i = 1; i < NEW_DATA.length; i++) {
            NEW_DATA[i] = (byte) (0xA0 + i);
        }
    }

    static byte[] image() {
        StringBuilder table = new StringBuilder();
        table.append("newhdr:\n .byte ");
        for (int i = 0; i < NEW_HEADER.length; i++) {
            table.append(i > 0 ? ", " : "").append(NEW_HEADER[i] & 0xFF);
        }
        table.append("\nnewdata:\n .byte ");
        for (int i = 0; i < NEW_DATA.length; i++) {
            table.append(i > 0 ? ", " : "").append(NEW_DATA[i] & 0xFF);
        }
        String src = """
                ptr = $10
                len = $12
                crcbad = $14
                count = $15
                done = $16
                .org $E000
                reset:
                  sei
                  cld
                  ldx #$FF
                  txs
                  lda #$40
                  sta $4017 ; no APU frame IRQ: every IRQ here is the adapter's
                  lda #0
                  sta crcbad
                  sta done
                  sta count
                  sta $4023
                  lda #$83
                  sta $4023
                  jsr start_motor
                ; the side: disk info, file amount, the file's header and data
                  lda #$00
                  ldx #$03
                  ldy #56
                  jsr read_at
                  lda #$40
                  ldx #$03
                  ldy #2
                  jsr read_at
                  lda #$50
                  ldx #$03
                  ldy #16
                  jsr read_at
                  lda $035D
                  clc
                  adc #1
                  sta len
                  lda $035E
                  adc #0
                  sta len+1
                  lda #$00
                  sta ptr
                  lda #$60
                  sta ptr+1
                  jsr read_block
                ; a new file after it
                  lda #<newhdr
                  ldx #>newhdr
                  ldy #16
                  jsr write_at
                  lda #<newdata
                  ldx #>newdata
                  ldy #33
                  jsr write_at
                  lda #$25
                  sta $4025
                  lda #1
                  sta done
                ; the motor stopped and started again: the side from its start
                  lda #$26
                  sta $4025
                  jsr start_motor
                  lda #$00
                  ldx #$07
                  ldy #56
                  jsr read_at
                  lda #$40
                  ldx #$07
                  ldy #2
                  jsr read_at
                  lda #$50
                  ldx #$07
                  ldy #16
                  jsr read_at
                  lda #$00
                  sta ptr
                  lda #$62
                  sta ptr+1
                  lda $035D
                  clc
                  adc #1
                  sta len
                  lda $035E
                  adc #0
                  sta len+1
                  jsr read_block
                  lda #$60
                  ldx #$03
                  ldy #16
                  jsr read_at
                ; the new data block by the transfer IRQ: 33 bytes and the 2 CRC bytes
                  lda #0
                  sta count
                  lda #$E5
                  sta $4025
                  cli
                wait_irq:
                  lda count
                  cmp #35
                  bcc wait_irq
                  sei
                  lda $4030
                  and #$10
                  ora crcbad
                  sta crcbad
                  lda #$25
                  sta $4025
                  lda #2
                  sta done
                ; the timer, once
                  lda #<1000
                  sta $4020
                  lda #>1000
                  sta $4021
                  lda #$02
                  sta $4022
                  cli
                wait_timer:
                  lda done
                  cmp #3
                  bne wait_timer
                  sei
                forever:
                  jmp forever

                start_motor:
                  lda #$27
                  sta $4025
                  lda #$25
                  sta $4025
                sm_wait:
                  lda $4032
                  and #$02
                  bne sm_wait
                  rts

                ; read a block of Y bytes to X:A
                read_at:
                  sta ptr
                  stx ptr+1
                  sty len
                  lda #0
                  sta len+1
                read_block:
                  lda #$65
                  sta $4025
                  ldy #0
                rb_next:
                  jsr wait_byte
                  lda $4031
                  sta (ptr),y
                  iny
                  bne rb_count
                  inc ptr+1
                rb_count:
                  lda len
                  bne rb_low
                  dec len+1
                rb_low:
                  dec len
                  lda len
                  ora len+1
                  bne rb_next
                  jsr wait_byte
                  lda $4031
                  jsr wait_byte
                  lda $4031
                  lda $4030
                  and #$10
                  ora crcbad
                  sta crcbad
                  lda #$25
                  sta $4025
                  rts

                ; write a block of Y bytes from X:A, with its CRC
                write_at:
                  sta ptr
                  stx ptr+1
                  sty len
                  lda #$21
                  sta $4025
                  ldx #0
                wa_gap:
                  dex
                  bne wa_gap
                  ldy #0
                  lda (ptr),y
                  sta $4024
                  lda #$61
                  sta $4025
                wa_next:
                  iny
                  dec len
                  beq wa_crc
                  jsr wait_byte
                  lda (ptr),y
                  sta $4024
                  jmp wa_next
                wa_crc:
                  jsr wait_byte
                  lda #$71
                  sta $4025
                  jsr wait_byte
                  jsr wait_byte
                  lda #$21
                  sta $4025
                  rts

                wait_byte:
                  lda $4030
                  and #$02
                  beq wait_byte
                  rts

                irq:
                  pha
                  lda $4030
                  and #$01
                  bne irq_timer
                  txa
                  pha
                  ldx count
                  lda $4031
                  sta $0400,x
                  inc count
                  pla
                  tax
                  pla
                  rti
                irq_timer:
                  lda #3
                  sta done
                  pla
                  rti
                nmi:
                  rti
                """ + table + """

                .org $FFFA
                .word nmi, reset, irq
                """;
        return Assembler.assemble(src).image(0xE000, 0x2000, 0xEA);
    }
}
