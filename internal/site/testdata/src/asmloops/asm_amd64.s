#include "textflag.h"

// func clearTable(p *byte, n int)
TEXT ·clearTable(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), BX
	MOVQ n+8(FP), DX
	PXOR X0, X0

memclr: // want `the assembly loop memclr at lines 9–13 runs 4 instructions per iteration: it zeroes memory 16 bytes per iteration \(MOVOU X0, 0\(BX\): one store of the register X0 zeroed before the loop`
	MOVOU X0, 0(BX)
	ADDQ  $16, BX
	SUBQ  $1, DX
	JNZ   memclr
	RET

// func copyWords(dst, src *uint64, n int)
TEXT ·copyWords(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

loop: // want `the assembly loop loop at lines 22–28 runs 6 instructions per iteration$`
	MOVQ (SI), AX
	MOVQ AX, (DI)
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  loop
	RET

// func emitLiteral(dst, lit []byte) int
TEXT ·emitLiteral(SB), NOSPLIT, $24-56
	MOVQ dst_base+0(FP), DI
	MOVQ lit_base+24(FP), R10
	MOVQ lit_len+32(FP), AX
	MOVB $0xf0, 0(DI)
	ADDQ $1, DI
	MOVQ AX, ret+48(FP)
	MOVQ DI, 0(SP)
	MOVQ R10, 8(SP)
	MOVQ AX, 16(SP)
	CALL runtime·memmove(SB) // want `emitLiteral calls runtime·memmove to copy lit, which emitLiteral is given, into dst`
	RET
