/* A command file of 350 lines. */

int cmd_pad0(void);

int cmd_pad1(void);

int cmd_pad2(void);

int cmd_pad3(void);

int cmd_pad4(void);

int cmd_pad5(void);

int cmd_pad6(void);

int cmd_pad7(void);

int cmd_pad8(void);

int cmd_pad9(void);

int cmd_pad10(void);

int cmd_pad11(void);

int cmd_pad12(void);

int cmd_pad13(void);

int cmd_pad14(void);

int cmd_pad15(void);

int cmd_pad16(void);

int cmd_pad17(void);

int cmd_pad18(void);

int cmd_pad19(void);

int cmd_pad20(void);

int cmd_pad21(void);

int cmd_pad22(void);

int cmd_pad23(void);

int cmd_pad24(void);

int cmd_pad25(void);

int cmd_pad26(void);

int cmd_pad27(void);

int cmd_pad28(void);

int cmd_pad29(void);

int cmd_pad30(void);

int cmd_pad31(void);

int cmd_pad32(void);

int cmd_pad33(void);

int cmd_pad34(void);

int cmd_pad35(void);

int cmd_pad36(void);

int cmd_pad37(void);

int cmd_pad38(void);

int cmd_pad39(void);

int cmd_pad40(void);

int cmd_pad41(void);

int cmd_pad42(void);

int cmd_pad43(void);

int cmd_pad44(void);

int cmd_pad45(void);

int cmd_pad46(void);

int cmd_pad47(void);

int cmd_pad48(void);

int cmd_pad49(void);

int cmd_pad50(void);

int cmd_pad51(void);

int cmd_pad52(void);

int cmd_pad53(void);

int cmd_pad54(void);

int cmd_pad55(void);

int cmd_pad56(void);

int cmd_pad57(void);

int cmd_pad58(void);

int cmd_pad59(void);

int cmd_pad60(void);

int cmd_pad61(void);

int cmd_pad62(void);

int cmd_pad63(void);

int cmd_pad64(void);

int cmd_pad65(void);

int cmd_pad66(void);

int cmd_pad67(void);

int cmd_pad68(void);

int cmd_pad69(void);

int cmd_pad70(void);

int cmd_pad71(void);

int cmd_pad72(void);

int cmd_pad73(void);

int cmd_pad74(void);

int cmd_pad75(void);

int cmd_pad76(void);

int cmd_pad77(void);

int cmd_pad78(void);

int cmd_pad79(void);

int cmd_pad80(void);

int cmd_pad81(void);

int cmd_pad82(void);

int cmd_pad83(void);

int cmd_pad84(void);

int cmd_pad85(void);

int cmd_pad86(void);

int cmd_pad87(void);

int cmd_pad88(void);

int cmd_pad89(void);

int cmd_pad90(void);

int cmd_pad91(void);

int cmd_pad92(void);

int cmd_pad93(void);

int cmd_pad94(void);

int cmd_pad95(void);

int cmd_pad96(void);

int cmd_pad97(void);

int cmd_pad98(void);

int cmd_pad99(void);

int cmd_pad100(void);

int cmd_pad101(void);

int cmd_pad102(void);

int cmd_pad103(void);

int cmd_pad104(void);

int cmd_pad105(void);

int cmd_pad106(void);

int cmd_pad107(void);

int cmd_pad108(void);

int cmd_pad109(void);

int cmd_pad110(void);

int cmd_pad111(void);

int cmd_pad112(void);

int cmd_pad113(void);

int cmd_pad114(void);

int cmd_pad115(void);

int cmd_pad116(void);

int cmd_pad117(void);

int cmd_pad118(void);

int cmd_pad119(void);

int cmd_pad120(void);

int cmd_pad121(void);

int cmd_pad122(void);

int cmd_pad123(void);

int cmd_pad124(void);

int cmd_pad125(void);

int cmd_pad126(void);

int cmd_pad127(void);

int cmd_pad128(void);

int cmd_pad129(void);

int cmd_pad130(void);

int cmd_pad131(void);

int cmd_pad132(void);

int cmd_pad133(void);

int cmd_pad134(void);

int cmd_pad135(void);

int cmd_pad136(void);

int cmd_pad137(void);

int cmd_pad138(void);

int cmd_pad139(void);

int cmd_pad140(void);

int cmd_pad141(void);

int cmd_pad142(void);

int cmd_pad143(void);

int cmd_pad144(void);

int cmd_pad145(void);

int cmd_pad146(void);

int cmd_pad147(void);

int cmd_pad148(void);

int cmd_pad149(void);

int cmd_pad150(void);

int cmd_pad151(void);

int cmd_pad152(void);

int cmd_pad153(void);

int cmd_pad154(void);

int cmd_pad155(void);

int cmd_pad156(void);

int cmd_pad157(void);

int cmd_pad158(void);

int cmd_pad159(void);

int cmd_pad160(void);

int cmd_pad161(void);

int cmd_pad162(void);

int cmd_pad163(void);

int cmd_pad164(void);

int cmd_pad165(void);

int cmd_pad166(void);

int cmd_pad167(void);

int cmd_pad168(void);

int cmd_pad169(void);

int cmd_pad170(void);

int cmd_pad171(void);

int cmd_pad172(void);

int cmd_pad173(void);
int cmd_last(void);
